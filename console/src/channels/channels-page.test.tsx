/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Channel, ConfigFile } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { ChannelsPage } from './channels-page';

const declared: Channel = {
  id: 1,
  name: 'openai-main',
  type: 'openai',
  base_url: null,
  keys: ['sk-...abcd'],
  models: ['gpt-4o'],
  model_mapping: {},
  groups: ['default'],
  priority: 0,
  weight: 1,
  endpoints: null,
  status: 'enabled',
  config: {},
  created_at: 0,
  managed: 'config',
};

const added: Channel = { ...declared, id: 2, name: 'anthropic-extra', type: 'anthropic', managed: 'api' };

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage(configFile: ConfigFile) {
  const fetchMock = mockFetch((url, init) => {
    if (url === '/api/config-file') return { status: 200, body: configFile };
    if (url === '/api/channels/1/test')
      return { status: 200, body: { ok: true, latency_ms: 42, error: null } };
    if (init?.method === 'PATCH') return { status: 200, body: { ...added, status: 'disabled' } };
    if (url.startsWith('/api/channels?')) return { status: 200, body: { data: [declared, added] } };
    return { status: 200, body: { data: [] } };
  });
  renderWithProviders(<ChannelsPage />);
  return fetchMock;
}

async function rowOf(name: string) {
  const table = within(await screen.findByRole('table', { name: 'Channels' }));
  return within(table.getByText(name).closest('tr') as HTMLElement);
}

describe('ChannelsPage and the configuration file', () => {
  it('shows a channel the file manages read-only, naming the file, and still tests it', async () => {
    const fetchMock = renderPage({ file: '/etc/gateway/gateway.yaml', settings: [] });
    const row = await rowOf('openai-main');
    expect(await row.findByText('Managed by /etc/gateway/gateway.yaml')).toBeTruthy();
    for (const name of ['Edit', 'Disable', 'Delete']) {
      expect(row.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
    const user = userEvent.setup({ delay: null });
    await user.click(row.getByRole('button', { name: 'Disable' }));
    await user.click(row.getByRole('button', { name: 'Delete' }));
    await user.click(row.getByRole('button', { name: 'Edit' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.hover(row.getByRole('button', { name: 'Edit' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Managed by the configuration file /etc/gateway/gateway.yaml: change it there.',
    );
    expect(row.getByRole('button', { name: 'Health' }).getAttribute('aria-disabled')).toBeNull();
    await user.click(row.getByRole('button', { name: 'Test' }));
    expect(await row.findByText(/42 ms/)).toBeTruthy();
    expect(
      fetchMock.mock.calls.filter(([, init]) => init?.method !== undefined && init.method !== 'GET'),
    ).toEqual([['/api/channels/1/test', expect.objectContaining({ method: 'POST' })]]);
  });

  it('keeps every action of a channel made through the API', async () => {
    const fetchMock = renderPage({ file: '/etc/gateway/gateway.yaml', settings: [] });
    const row = await rowOf('anthropic-extra');
    await screen.findAllByText('Managed by /etc/gateway/gateway.yaml');
    expect(row.queryByText(/^Managed by/)).toBeNull();
    for (const name of ['Edit', 'Disable', 'Delete']) {
      expect(row.getByRole('button', { name }).getAttribute('aria-disabled')).toBeNull();
    }
    const user = userEvent.setup({ delay: null });
    await user.click(row.getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/channels/2', expect.objectContaining({ method: 'PATCH' })),
    );
    await user.click(row.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('dialog', { name: 'Delete anthropic-extra?' })).toBeTruthy();
  });

  it('says "the configuration file" when the gateway names none', async () => {
    renderPage({ file: null, settings: [] });
    const row = await rowOf('openai-main');
    await waitFor(() => expect(row.getByText('Managed by the configuration file')).toBeTruthy());
    expect(row.getByRole('button', { name: 'Edit' }).getAttribute('aria-disabled')).toBe('true');
  });
});
