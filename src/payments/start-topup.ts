import { NANO_PER_USD } from '../billing/money.js';
import { GatewayError } from '../errors/gateway-error.js';
import { unixNow } from '../store/json-column.js';
import { checkoutSessionParams } from './checkout-session-params.js';
import { describeStripeError } from './describe-stripe-error.js';
import { newOrderId } from './order-id.js';
import type { Payments } from './payments.js';
import { expireOrder } from './settle-order.js';

const NANO_PER_CENT = NANO_PER_USD / 100;

/**
 * Starts a top-up of `amountCents` (admin-api section 15): the order is stored pending first, so
 * that any payment Stripe takes has an order to credit; then Stripe is asked for a Checkout
 * Session, with the order id as idempotency key (the package's retries after a lost answer get the
 * same session back, never a second one), and the session id is stored with the order.
 *
 * When Stripe refuses or cannot be reached, the order is expired at once: its payment page was
 * never handed to anyone, so nothing can be paid on it; were it paid all the same, the webhook
 * would still credit it (an expired order may become paid).
 */
export async function startTopup(
  payments: Payments,
  options: { userId: number; amountCents: number; consoleOrigin: string },
): Promise<{ orderId: string; url: string }> {
  const client = payments.stripe.current(payments.settings());
  if (!client) throw new GatewayError('topup_not_configured');
  const { orders, orderEvents } = payments.repositories;
  const order = await payments.store.db.transaction().execute(async (trx) => {
    const created = await orders.create(
      {
        id: newOrderId(),
        userId: options.userId,
        amount: options.amountCents * NANO_PER_CENT,
        provider: 'stripe',
        now: unixNow(),
      },
      trx,
    );
    await orderEvents.record(
      { orderId: created.id, type: 'created', detail: { amount_cents: options.amountCents } },
      trx,
    );
    return created;
  });
  let session;
  try {
    session = await client.checkout.sessions.create(
      checkoutSessionParams({
        orderId: order.id,
        userId: options.userId,
        amountCents: options.amountCents,
        consoleOrigin: options.consoleOrigin,
      }),
      { idempotencyKey: order.id },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a payment page URL');
  } catch (error) {
    const detail = describeStripeError(error);
    await orderEvents.record({ orderId: order.id, type: 'checkout_failed', detail: { error: detail } });
    await expireOrder(payments, { order, by: 'checkout', reason: 'no Checkout Session was made' });
    payments.logger.warn({ order: order.id, error: detail }, 'Stripe did not make a Checkout Session');
    throw new GatewayError('payment_provider_failed', { detail });
  }
  await orders.setProviderRef(order.id, session.id);
  await orderEvents.record({ orderId: order.id, type: 'checkout_created', detail: { session: session.id } });
  return { orderId: order.id, url: session.url };
}
