/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import type { InviteCode } from './invite-code';
import { InviteCodesPage } from './invite-codes-page';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('InviteCodesPage', () => {
  it('makes codes, shows them once, and lists them masked with who used them', async () => {
    const listed: InviteCode[] = [
      {
        id: 1,
        code: 'inv_…abcd',
        status: 'used',
        used_by: 3,
        used_at: 1_800_000_000,
        created_at: 1_799_000_000,
      },
    ];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/invite-codes' && init?.method === 'POST') {
        const made = [
          {
            id: 2,
            code: 'inv_first',
            status: 'unused',
            used_by: null,
            used_at: null,
            created_at: 1_800_000_100,
          },
          {
            id: 3,
            code: 'inv_second',
            status: 'unused',
            used_by: null,
            used_at: null,
            created_at: 1_800_000_100,
          },
        ];
        listed.unshift(...made.map((code) => ({ ...code, code: `inv_…${code.id}` })));
        return json({ data: made }, 201);
      }
      if (url.startsWith('/api/invite-codes')) return json({ data: listed });
      if (url.startsWith('/api/users')) return json({ data: [{ id: 3, username: 'alice' }] });
      return json({ data: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<InviteCodesPage />);
    const table = within(await screen.findByRole('table', { name: 'Invite codes' }));
    await waitFor(() => expect(table.getByText('alice')).toBeTruthy());

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'New invite codes' }));
    const form = within(await screen.findByRole('dialog', { name: 'New invite codes' }));
    await user.clear(form.getByLabelText(/^How many/));
    await user.type(form.getByLabelText(/^How many/), '2');
    await user.click(form.getByRole('button', { name: 'Create codes' }));
    const shown = within(await screen.findByRole('dialog', { name: '2 new invite codes' }));
    expect(shown.getByTestId('created-invite-codes').textContent).toBe('inv_first\ninv_second');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ count: 2 });
    await user.click(shown.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(table.getByText('inv_…2')).toBeTruthy());
  });
});
