import { describe, expect, it } from 'vitest';
import type { Order } from './order';
import { ordersRefetchInterval, PENDING_ORDER_POLL_MS } from './orders-refetch-interval';

const NOW = 1_800_000_000;

const order = (id: string, overrides: Partial<Order> = {}): Order => ({
  id,
  user_id: 3,
  amount: 10,
  status: 'pending',
  provider_ref: `cs_test_${id}`,
  created_at: NOW - 60,
  paid_at: null,
  ...overrides,
});

describe('ordersRefetchInterval', () => {
  it('polls while a recent order is pending, and stops once every order is paid or expired', () => {
    expect(ordersRefetchInterval({ orders: [order('ord_1')], now: NOW, watchedOrderId: undefined })).toBe(
      PENDING_ORDER_POLL_MS,
    );
    const settled = [order('ord_1', { status: 'paid', paid_at: NOW }), order('ord_2', { status: 'expired' })];
    expect(ordersRefetchInterval({ orders: settled, now: NOW, watchedOrderId: 'ord_1' })).toBe(false);
    expect(ordersRefetchInterval({ orders: [], now: NOW, watchedOrderId: undefined })).toBe(false);
  });

  it('lets an old abandoned order rest, unless the browser just came back from paying it', () => {
    const old = order('ord_9', { created_at: NOW - 2 * 3600 });
    expect(ordersRefetchInterval({ orders: [old], now: NOW, watchedOrderId: undefined })).toBe(false);
    expect(ordersRefetchInterval({ orders: [old], now: NOW, watchedOrderId: 'ord_9' })).toBe(
      PENDING_ORDER_POLL_MS,
    );
  });
});
