import { NANO_PER_USD } from '../billing/money.js';
import type { OrderRecord } from '../store/orders-repository.js';
import type { CheckoutSessionState } from './checkout-session-state.js';
import type { Payments, SettledBy } from './payments.js';
import { creditPaidOrder, expireOrder, type CreditOutcome } from './settle-order.js';

const NANO_PER_CENT = NANO_PER_USD / 100;

export type SessionOutcome =
  CreditOutcome | 'expired' | 'not_pending' | 'open' | 'amount_mismatch' | 'session_mismatch';

/**
 * Brings an order in line with its Checkout Session as Stripe reports it, by webhook or when
 * asked: paid (https://docs.stripe.com/api/checkout/sessions/object#checkout_session_object-payment_status)
 * credits the order once, provided Stripe took the order's amount in US dollars; expired ends it;
 * anything else leaves it pending. A session other than the one the order recorded changes nothing.
 */
export async function applyCheckoutSession(
  payments: Payments,
  options: { order: OrderRecord; session: CheckoutSessionState; by: SettledBy },
): Promise<SessionOutcome> {
  const { order, session, by } = options;
  const { orders, orderEvents } = payments.repositories;
  if (order.providerRef !== null && order.providerRef !== session.id) {
    await orderEvents.record({
      orderId: order.id,
      type: 'session_mismatch',
      detail: { by, session: session.id, expected_session: order.providerRef },
    });
    return 'session_mismatch';
  }
  if (session.payment_status === 'paid') {
    const expectedCents = order.amount / NANO_PER_CENT;
    if (session.amount_total !== expectedCents || session.currency !== 'usd') {
      // Money was taken, but not what the order says: an admin decides what it is worth.
      await orders.holdBack(order.id, 'amount_mismatch');
      await orderEvents.record({
        orderId: order.id,
        type: 'amount_mismatch',
        detail: {
          by,
          session: session.id,
          expected: { amount_total: expectedCents, currency: 'usd' },
          received: { amount_total: session.amount_total ?? null, currency: session.currency ?? null },
        },
      });
      payments.logger.warn(
        { order: order.id, session: session.id },
        'a paid Checkout Session does not match its order; held back',
      );
      return 'amount_mismatch';
    }
    return creditPaidOrder(payments, { order, sessionId: session.id, by });
  }
  if (session.status === 'expired') {
    const expired = await expireOrder(payments, { order, by, reason: 'the Checkout Session expired unpaid' });
    return expired ? 'expired' : 'not_pending';
  }
  return 'open';
}
