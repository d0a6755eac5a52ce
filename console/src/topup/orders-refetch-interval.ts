import type { Order } from './order';

/** How often the order list reloads while a payment may still arrive. */
export const PENDING_ORDER_POLL_MS = 3000;

/**
 * An order left unpaid (the payment page closed) stays pending until Stripe expires it, a day
 * later: past this age a pending order no longer keeps the page polling, unless it is the one
 * the browser just came back from paying.
 */
const RECENT_ORDER_S = 30 * 60;

/**
 * The reload interval of the caller's orders: every few seconds while a recent order (or the one
 * being watched) is pending, none once they are all paid or expired.
 */
export function ordersRefetchInterval(options: {
  orders: readonly Order[];
  now: number;
  watchedOrderId: string | undefined;
}): number | false {
  const waiting = options.orders.some(
    (order) =>
      order.status === 'pending' &&
      (order.id === options.watchedOrderId || order.created_at >= options.now - RECENT_ORDER_S),
  );
  return waiting ? PENDING_ORDER_POLL_MS : false;
}
