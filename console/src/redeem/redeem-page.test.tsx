/** @vitest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import type { BalanceCredit } from './balance-credit';
import { RedeemPage } from './redeem-page';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RedeemPage', () => {
  it('credits a code: the balance and its history reload; a wrong code shows the gateway’s message', async () => {
    let balance = 1;
    const credits: BalanceCredit[] = [
      { id: 1, amount: 1, kind: 'signup', reference: null, created_at: 1_800_000_000 },
    ];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      const me = { id: 3, username: 'alice', role: 'user', language: null, balance, root: false };
      if (url === '/api/me/redeem') {
        const { code } = JSON.parse(String(init?.body)) as { code: string };
        if (code !== 'rc_good') {
          return json(
            {
              error: {
                message: 'The redemption code is invalid, used, expired or disabled.',
                type: 'gateway_api_error',
                code: 'invalid_redemption_code',
              },
            },
            400,
          );
        }
        balance = 6;
        credits.unshift({ id: 2, amount: 5, kind: 'redemption', reference: '17', created_at: 1_800_000_100 });
        return json({ ...me, balance });
      }
      if (url === '/api/me') return json(me);
      if (url.startsWith('/api/me/credits')) return json({ data: credits });
      return json({ error: { message: 'not here' } }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<RedeemPage />, { route: '/redeem' });
    const balanceCard = within(await screen.findByRole('region', { name: 'Balance' }));
    expect(balanceCard.getByText('$1.000000')).toBeTruthy();
    const history = within(await screen.findByRole('table', { name: 'Balance history' }));
    expect(history.getByText('Sign-up balance')).toBeTruthy();

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText(/^Redemption code/), 'rc_wrong');
    await user.click(screen.getByRole('button', { name: 'Redeem' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The redemption code is invalid, used, expired or disabled.',
    );

    await user.clear(screen.getByLabelText(/^Redemption code/));
    await user.type(screen.getByLabelText(/^Redemption code/), ' rc_good ');
    await user.click(screen.getByRole('button', { name: 'Redeem' }));
    await waitFor(() => expect(balanceCard.getByText('$6.000000')).toBeTruthy());
    await waitFor(() => expect(history.getByText('Redemption code')).toBeTruthy());
    expect(history.getByText('+$5.000000')).toBeTruthy();
    const sent = fetchMock.mock.calls.filter(([url]) => url === '/api/me/redeem').at(-1);
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ code: 'rc_good' });
    expect((screen.getByLabelText(/^Redemption code/) as HTMLInputElement).value).toBe('');
  });
});
