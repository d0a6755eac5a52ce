/** @vitest-environment jsdom */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import { goToCheckout } from './go-to-checkout';
import type { Order } from './order';
import { PENDING_ORDER_POLL_MS } from './orders-refetch-interval';
import { TopUpPage } from './top-up-page';

vi.mock('./go-to-checkout', () => ({ goToCheckout: vi.fn() }));

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const options = { registration: 'closed', pricing_public: true, topup: true, topup_min_usd: 5 };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(goToCheckout).mockClear();
});

describe('TopUpPage', () => {
  it('sends the amount, at least the minimum, and goes to Stripe’s payment page', async () => {
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url === '/api/auth/options') return json(options);
      if (url === '/api/me/topup')
        return json({ order_id: 'ord_4', url: 'https://checkout.stripe.com/c/pay/cs_test_4' });
      if (url === '/api/me')
        return json({ id: 3, username: 'alice', role: 'user', language: null, balance: 1 });
      return json({ data: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<TopUpPage />, { route: '/topup' });
    const amount = await screen.findByLabelText(/^Amount/);
    await screen.findByText('At least $5.00.');
    const user = userEvent.setup({ delay: null });
    await user.type(amount, '2');
    await user.click(screen.getByRole('button', { name: 'Pay with Stripe' }));
    expect(screen.getByText('At least $5.00')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/me/topup')).toBe(false);

    await user.clear(amount);
    await user.type(amount, '12.5');
    await user.click(screen.getByRole('button', { name: 'Pay with Stripe' }));
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_4'),
    );
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/me/topup');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ amount: 12.5 });
  });

  it('back from Stripe, reloads the orders while the payment is pending and stops once it is paid', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const now = Math.floor(Date.now() / 1000);
    const pending: Order = {
      id: 'ord_7',
      user_id: 3,
      amount: 10,
      status: 'pending',
      provider_ref: 'cs_test_7',
      created_at: now - 5,
      paid_at: null,
    };
    let orderLoads = 0;
    let balance = 1;
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url === '/api/auth/options') return json(options);
      if (url === '/api/me') return json({ id: 3, username: 'alice', role: 'user', language: null, balance });
      if (url.startsWith('/api/me/orders')) {
        orderLoads += 1;
        // Stripe's webhook arrives between the second and the third look.
        if (orderLoads < 3) return json({ data: [pending] });
        balance = 11;
        return json({ data: [{ ...pending, status: 'paid', paid_at: now }] });
      }
      return json({ data: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<TopUpPage />, { route: '/topup?order=ord_7' });
    expect((await screen.findByRole('status')).textContent).toBe(
      'Waiting for Stripe to confirm your payment of $10.000000…',
    );
    const orders = within(await screen.findByRole('table', { name: 'Your orders' }));
    expect(orders.getByText('awaiting payment')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(PENDING_ORDER_POLL_MS * 2 + 100));
    await waitFor(() => expect(orders.getByText('paid')).toBeTruthy());
    expect(screen.getByRole('status').textContent).toBe('Paid: $10.000000 was added to your balance.');
    // The balance reloads once the order is paid.
    await waitFor(() => expect(screen.getByText('$11.000000')).toBeTruthy());

    const loadsWhenPaid = orderLoads;
    await act(() => vi.advanceTimersByTimeAsync(PENDING_ORDER_POLL_MS * 5));
    expect(orderLoads).toBe(loadsWhenPaid);
  });

  it('says a cancelled payment charged nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/me/orders')) {
          return json({
            data: [
              {
                id: 'ord_8',
                user_id: 3,
                amount: 3,
                status: 'pending',
                provider_ref: null,
                created_at: now,
                paid_at: null,
              },
            ],
          });
        }
        if (url === '/api/auth/options') return json(options);
        return json({ id: 3, username: 'alice', role: 'user', language: null, balance: 1 });
      }),
    );
    renderWithProviders(<TopUpPage />, { route: '/topup?order=ord_8&canceled=1', language: 'zh-CN' });
    expect((await screen.findByRole('status')).textContent).toBe('$3.000000 的付款已取消, 未扣款。');
  });
});
