/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/mock-fetch';
import { renderWithProviders } from '../test/render-with-providers';
import type { Guardrail } from './guardrail';
import { GuardrailsPage } from './guardrails-page';

const secrets: Guardrail = {
  id: 3,
  name: 'secrets',
  kind: 'regex',
  pattern: 'sk-[A-Za-z0-9]{20,}',
  url: null,
  action: 'block',
  fail: 'closed',
  timeout_ms: 1000,
  groups: null,
  created_at: 1_700_000_000,
  managed: 'api',
};

const moderation: Guardrail = {
  ...secrets,
  id: 4,
  name: 'moderation',
  kind: 'webhook',
  pattern: null,
  url: 'https://checks.example.com/guard',
  action: 'log',
  fail: 'open',
  timeout_ms: 2500,
  groups: ['vip'],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('GuardrailsPage', () => {
  it('lists the guardrails and deletes one after asking', async () => {
    let stored = [secrets, moderation];
    // DELETE answers 204 without a body, which `mockFetch` (always JSON) cannot send.
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        stored = stored.filter((guardrail) => url !== `/api/guardrails/${guardrail.id}`);
        return new Response(null, { status: 204 });
      }
      const data = url.startsWith('/api/guardrails') ? stored : [];
      return new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<GuardrailsPage />);
    const table = within(await screen.findByRole('table', { name: 'Guardrails' }));
    expect(table.getByText('Regular expression')).toBeTruthy();
    expect(table.getByText('sk-[A-Za-z0-9]{20,}')).toBeTruthy();
    expect(table.getByText('https://checks.example.com/guard')).toBeTruthy();
    expect(table.getByText('Fail open · 2500 ms')).toBeTruthy();
    expect(table.getByText('all')).toBeTruthy();
    expect(table.getByText('vip')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(table.getAllByRole('button', { name: 'Delete' })[1]!);
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete moderation?' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/guardrails/4',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    );
    // The list reloads without the deleted guardrail.
    await waitFor(() => expect(table.queryByText('moderation')).toBeNull());
    expect(table.getByText('secrets')).toBeTruthy();
  });

  it('says the labels in Chinese', async () => {
    mockFetch((url) =>
      url.startsWith('/api/guardrails')
        ? { status: 200, body: { data: [moderation] } }
        : { status: 200, body: { data: [] } },
    );
    renderWithProviders(<GuardrailsPage />, { language: 'zh-CN' });
    const table = within(await screen.findByRole('table', { name: '护栏' }));
    expect(table.getByText('失败即放行 · 2500 毫秒')).toBeTruthy();
    expect(table.getByText('记录')).toBeTruthy();
  });
});

describe('GuardrailsPage and the configuration file', () => {
  it('shows a guardrail the file manages read-only, naming the file; one made here keeps Edit and Delete', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/config-file') return { status: 200, body: { file: 'gateway.yaml', settings: [] } };
      if (url.startsWith('/api/guardrails')) {
        return { status: 200, body: { data: [{ ...secrets, managed: 'config' }, moderation] } };
      }
      return { status: 200, body: { data: [] } };
    });
    renderWithProviders(<GuardrailsPage />);
    const table = within(await screen.findByRole('table', { name: 'Guardrails' }));
    const managed = within(table.getByText('secrets').closest('tr') as HTMLElement);
    expect(await managed.findByText('Managed by gateway.yaml')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    for (const name of ['Edit', 'Delete']) {
      const button = managed.getByRole('button', { name });
      expect(button.getAttribute('aria-disabled')).toBe('true');
      await user.click(button);
    }
    expect(screen.queryByRole('dialog')).toBeNull();

    const owned = within(table.getByText('moderation').closest('tr') as HTMLElement);
    expect(owned.queryByText(/^Managed by/)).toBeNull();
    expect(owned.getByRole('button', { name: 'Delete' }).getAttribute('aria-disabled')).toBeNull();
    await user.click(owned.getByRole('button', { name: 'Edit' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New guardrail' }).getAttribute('aria-disabled')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method !== undefined && init.method !== 'GET')).toBe(
      false,
    );
  });
});
