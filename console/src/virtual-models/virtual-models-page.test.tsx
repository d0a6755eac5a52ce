/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Channel, VirtualModel } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { VirtualModelsPage } from './virtual-models-page';

const fast: VirtualModel = {
  name: 'team/fast',
  targets: [
    { model: 'gpt-4o-mini', priority: 1, weight: 3 },
    { model: 'claude-haiku', priority: 0, weight: 1 },
  ],
  strategy: 'latency',
  fallback_on: ['rate_limit', 'timeout'],
  sticky: false,
};

const channel: Channel = {
  id: 1,
  name: 'openai',
  type: 'openai',
  base_url: null,
  keys: [],
  models: ['gpt-4o-mini'],
  model_mapping: {},
  groups: ['default'],
  priority: 0,
  weight: 1,
  endpoints: null,
  status: 'enabled',
  config: {},
  created_at: 0,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('VirtualModelsPage', () => {
  it('lists the virtual models and deletes one after asking', async () => {
    const fetchMock = mockFetch((url, init) => {
      if (init?.method === 'DELETE') return { status: 200, body: fast };
      if (url.startsWith('/api/virtual-models')) return { status: 200, body: { data: [fast] } };
      if (url.startsWith('/api/channels')) return { status: 200, body: { data: [channel] } };
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<VirtualModelsPage />);
    const table = within(await screen.findByRole('table', { name: 'Virtual models' }));
    expect(table.getByText('gpt-4o-mini · priority 1 · weight 3')).toBeTruthy();
    expect(table.getByText('Latency')).toBeTruthy();
    expect(table.getByText('Rate limit (429)')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(table.getByRole('button', { name: 'Delete' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete team/fast?' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/virtual-models/team%2Ffast',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    );
  });
});
