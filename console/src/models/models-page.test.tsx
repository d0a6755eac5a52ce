/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelMetadata } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { ModelsPage } from './models-page';

const metadata: ModelMetadata[] = [
  {
    model: 'openai/gpt-4o',
    context_window: 128000,
    max_output_tokens: null,
    capabilities: ['tools', 'vision'],
  },
  { model: 'embed', context_window: null, max_output_tokens: null, capabilities: [] },
  { model: 'o3', context_window: null, max_output_tokens: 100000, capabilities: null },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The texts of a model's metadata cell: its lines and its capability badges. */
function metadataTexts(table: ReturnType<typeof within>, model: string): string[] {
  const row = table.getByText(model).closest('tr');
  const cell = [...(row?.querySelectorAll('td') ?? [])].find(
    (candidate) => candidate.dataset['label'] === 'Limits & capabilities',
  );
  if (!cell) throw new Error(`no metadata cell for ${model}`);
  return [...cell.querySelectorAll('p, .mantine-Badge-label')].map((text) => text.textContent);
}

describe('ModelsPage metadata', () => {
  it('shows each model’s limits and capabilities, unknown apart from none, and clears them after asking', async () => {
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === 'DELETE') return { status: 200, body: metadata[0] };
      if (url.startsWith('/api/models')) return { status: 200, body: { data: metadata } };
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<ModelsPage />);
    const table = within(await screen.findByRole('table', { name: 'Models' }));
    expect(metadataTexts(table, 'openai/gpt-4o')).toEqual([
      'Context 128,000 · output unknown',
      'Tools',
      'Image input',
    ]);
    expect(metadataTexts(table, 'embed')).toEqual(['Context unknown · output unknown', 'no capabilities']);
    expect(metadataTexts(table, 'o3')).toEqual(['Context unknown · output 100,000', 'capabilities unknown']);
    const user = userEvent.setup({ delay: null });
    const row = within(table.getByText('openai/gpt-4o').closest('tr') as HTMLElement);
    await user.click(row.getByRole('button', { name: 'Clear metadata' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete openai/gpt-4o?' }));
    await user.click(dialog.getByRole('button', { name: 'Clear metadata' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/models/openai%2Fgpt-4o',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    );
  });
});
