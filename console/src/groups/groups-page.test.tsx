/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../api/types';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import { GroupsPage } from './groups-page';

const group = (name: string, ratio: number, managed: Group['managed']): Group => ({
  name,
  ratio,
  budgets: [],
  max_concurrency: null,
  log_bodies: false,
  managed,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('GroupsPage and the configuration file', () => {
  it('offers no Edit for a group the file manages, naming the file; one made here loads into the form', async () => {
    mockFetch((url) => {
      if (url === '/api/config-file')
        return { status: 200, body: { file: '/etc/gateway/gateway.yaml', settings: [] } };
      if (url.startsWith('/api/groups')) {
        return { status: 200, body: { data: [group('vip', 0.8, 'config'), group('trial', 1.5, 'api')] } };
      }
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<GroupsPage />);
    const table = within(await screen.findByRole('table', { name: 'Groups' }));
    const managed = within(table.getByText('vip').closest('tr') as HTMLElement);
    expect(await managed.findByText('Managed by /etc/gateway/gateway.yaml')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(managed.getByRole('button', { name: 'Edit' }));
    expect(managed.getByRole('button', { name: 'Edit' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Group' })).toHaveProperty('value', '');

    const owned = within(table.getByText('trial').closest('tr') as HTMLElement);
    expect(owned.queryByText(/^Managed by/)).toBeNull();
    await user.click(owned.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('textbox', { name: 'Group' })).toHaveProperty('value', 'trial');
  });
});
