export const ORDER_STATUSES = ['pending', 'paid', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Something that happened to an order (`GET /api/orders`): made, Checkout Session created, a
 * webhook received, a check with Stripe, credited, expired; `reference` the Stripe event's id.
 */
export interface OrderEvent {
  type: string;
  at: number;
  reference: string | null;
  detail: Record<string, unknown> | null;
}

/**
 * A card top-up (admin-api section 15): `id` an opaque `ord_...` text, `amount` in USD,
 * `provider_ref` the Stripe Checkout Session's id. `events` only in the admin's list.
 */
export interface Order {
  id: string;
  /** Null once the user was deleted. */
  user_id: number | null;
  amount: number;
  status: OrderStatus | (string & {});
  provider?: string;
  provider_ref: string | null;
  created_at: number;
  paid_at: number | null;
  /** Why the order waits for an admin (e.g. the amount paid differs); null when nothing is wrong. */
  problem?: string | null;
  events?: OrderEvent[];
}

/** `POST /api/me/topup`: the order made, and the Stripe Checkout page to pay it on. */
export interface StartedTopUp {
  order_id: string;
  url: string;
}
