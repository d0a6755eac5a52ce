/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelMetadata, Price } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { ModelsPage } from './models-page';

const metadata: ModelMetadata[] = [
  {
    model: 'openai/gpt-4o',
    context_window: 128000,
    max_output_tokens: null,
    capabilities: ['tools', 'vision'],
    managed: 'api',
  },
  { model: 'embed', context_window: null, max_output_tokens: null, capabilities: [], managed: 'api' },
  { model: 'o3', context_window: null, max_output_tokens: 100000, capabilities: null, managed: 'api' },
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

describe('ModelsPage and the configuration file', () => {
  const price = (model: string, managed: Price['managed']): Price => ({
    model,
    input: 2.5,
    output: 10,
    cached_input: null,
    cache_write: null,
    per_request: null,
    input_audio: null,
    output_audio: null,
    per_minute: null,
    per_million_characters: null,
    managed,
  });

  it('shows a price and metadata the file manages read-only, naming the file; others stay writable', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/config-file')
        return { status: 200, body: { file: '/etc/gateway/gateway.yaml', settings: [] } };
      if (url.startsWith('/api/prices')) {
        return { status: 200, body: { data: [price('gpt-4o', 'config'), price('o3', 'api')] } };
      }
      if (url.startsWith('/api/models')) {
        const known = { context_window: 128000, max_output_tokens: null, capabilities: [] };
        return {
          status: 200,
          body: {
            data: [
              { model: 'gpt-4o', ...known, managed: 'config' },
              { model: 'o3', ...known, managed: 'api' },
            ],
          },
        };
      }
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<ModelsPage />);
    const table = within(await screen.findByRole('table', { name: 'Models' }));
    const managed = within(table.getByText('gpt-4o').closest('tr') as HTMLElement);
    await waitFor(() => expect(managed.getAllByText('Managed by /etc/gateway/gateway.yaml')).toHaveLength(2));
    for (const name of ['Set price', 'Remove price', 'Edit metadata', 'Clear metadata']) {
      expect(managed.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
    const user = userEvent.setup({ delay: null });
    await user.click(managed.getByRole('button', { name: 'Set price' }));
    await user.click(managed.getByRole('button', { name: 'Remove price' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    const owned = within(table.getByText('o3').closest('tr') as HTMLElement);
    expect(owned.queryByText(/^Managed by/)).toBeNull();
    for (const name of ['Set price', 'Remove price', 'Edit metadata', 'Clear metadata']) {
      expect(owned.getByRole('button', { name }).getAttribute('aria-disabled')).toBeNull();
    }
    await user.click(owned.getByRole('button', { name: 'Set price' }));
    expect(await screen.findByRole('dialog', { name: 'Price of o3' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method !== undefined && init.method !== 'GET')).toBe(
      false,
    );
  });

  it('shows the per-minute and per-character prices of audio models where they are set', async () => {
    mockFetch((url) => {
      if (url === '/api/config-file') return { status: 200, body: { file: null, settings: [] } };
      if (url.startsWith('/api/prices'))
        return {
          status: 200,
          body: {
            data: [
              { ...price('whisper-1', 'api'), input: 0, output: 0, per_minute: 0.006 },
              { ...price('tts-1', 'api'), input: 0, output: 0, per_million_characters: 15 },
            ],
          },
        };
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<ModelsPage />);
    const table = within(await screen.findByRole('table', { name: 'Models' }));
    const whisper = within(table.getByText('whisper-1').closest('tr') as HTMLElement);
    expect(whisper.getByText(/per minute of audio/)).toBeTruthy();
    expect(whisper.queryByText(/per 1M characters/)).toBeNull();
    const tts = within(table.getByText('tts-1').closest('tr') as HTMLElement);
    expect(tts.getByText(/per 1M characters/)).toBeTruthy();
    expect(tts.queryByText(/per minute of audio/)).toBeNull();
  });
});
