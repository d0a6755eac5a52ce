/** @vitest-environment jsdom */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import type { Order } from '../topup/order';
import { AdminOrdersPage } from './admin-orders-page';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AdminOrdersPage', () => {
  it('lists every user’s orders and shows one order’s events', async () => {
    const paid: Order = {
      id: 'ord_12abc',
      user_id: 3,
      amount: 20,
      status: 'paid',
      provider_ref: 'cs_test_12',
      created_at: 1_800_000_000,
      paid_at: 1_800_000_060,
      events: [
        { type: 'checkout_created', at: 1_800_000_000, reference: null, detail: null },
        {
          type: 'webhook_received',
          at: 1_800_000_060,
          reference: 'evt_1',
          detail: { payment_status: 'paid' },
        },
        { type: 'credited', at: 1_800_000_060, reference: null, detail: null },
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/orders')) return json({ data: [paid] });
        if (url.startsWith('/api/users')) return json({ data: [{ id: 3, username: 'alice' }] });
        return json({ data: [] });
      }),
    );
    renderWithProviders(<AdminOrdersPage />);
    const table = within(await screen.findByRole('table', { name: 'Orders' }));
    expect(table.getByText('cs_test_12')).toBeTruthy();
    expect(table.getByText('paid')).toBeTruthy();
    expect(await table.findByText('alice')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(table.getByRole('button', { name: '3 events' }));
    const events = within(await screen.findByRole('dialog', { name: 'Events of order ord_12abc' }));
    expect(events.getByText('Webhook received')).toBeTruthy();
    expect(events.getByText('evt_1')).toBeTruthy();
    expect(events.getByText('{"payment_status":"paid"}')).toBeTruthy();
    expect(events.getByText('Balance credited')).toBeTruthy();
  });
});
