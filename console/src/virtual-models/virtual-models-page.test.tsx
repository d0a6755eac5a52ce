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
  managed: 'api',
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
  managed: 'api',
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

describe('VirtualModelsPage and the configuration file', () => {
  it('shows a virtual model the file manages read-only, naming the file; one made here stays writable', async () => {
    mockFetch((url) => {
      if (url === '/api/config-file')
        return { status: 200, body: { file: '/etc/gateway/gateway.yaml', settings: [] } };
      if (url.startsWith('/api/virtual-models')) {
        return { status: 200, body: { data: [{ ...fast, name: 'team/declared', managed: 'config' }, fast] } };
      }
      if (url.startsWith('/api/channels')) return { status: 200, body: { data: [channel] } };
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<VirtualModelsPage />);
    const table = within(await screen.findByRole('table', { name: 'Virtual models' }));
    const managed = within(table.getByText('team/declared').closest('tr') as HTMLElement);
    expect(await managed.findByText('Managed by /etc/gateway/gateway.yaml')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    for (const name of ['Edit', 'Delete']) {
      const button = managed.getByRole('button', { name });
      expect(button.getAttribute('aria-disabled')).toBe('true');
      await user.click(button);
    }
    expect(screen.queryByRole('dialog')).toBeNull();
    const owned = within(table.getByText('team/fast').closest('tr') as HTMLElement);
    expect(owned.queryByText(/^Managed by/)).toBeNull();
    for (const name of ['Edit', 'Delete']) {
      expect(owned.getByRole('button', { name }).getAttribute('aria-disabled')).toBeNull();
    }
  });
});
