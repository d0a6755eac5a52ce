import type Stripe from 'stripe';

/** What the buyer sees on Stripe's payment page. */
const PRODUCT_NAME = 'API balance top-up';

/** Where the console shows an order (console/src/user-routes.tsx). */
export function consoleOrderUrl(
  consoleOrigin: string,
  orderId: string,
  outcome: 'paid' | 'canceled',
): string {
  const url = new URL('/topup', consoleOrigin);
  url.searchParams.set('order', orderId);
  if (outcome === 'canceled') url.searchParams.set('canceled', '1');
  return url.toString();
}

/**
 * The Checkout Session of one order (https://docs.stripe.com/api/checkout/sessions/create): a
 * hosted payment page for one line of `amountCents` US cents, naming the order in
 * `client_reference_id` and `metadata.order_id` so that every webhook about it leads back to it.
 */
export function checkoutSessionParams(options: {
  orderId: string;
  userId: number;
  amountCents: number;
  consoleOrigin: string;
}): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      {
        price_data: {
          currency: 'usd',
          unit_amount: options.amountCents,
          product_data: { name: PRODUCT_NAME },
        },
        quantity: 1,
      },
    ],
    client_reference_id: options.orderId,
    metadata: { order_id: options.orderId, user_id: String(options.userId) },
    success_url: consoleOrderUrl(options.consoleOrigin, options.orderId, 'paid'),
    cancel_url: consoleOrderUrl(options.consoleOrigin, options.orderId, 'canceled'),
  };
}
