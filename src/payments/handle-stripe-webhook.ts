import type Stripe from 'stripe';
import { invalidRequest } from '../admin/admin-error.js';
import { GatewayError } from '../errors/gateway-error.js';
import { applyCheckoutSession, type SessionOutcome } from './apply-checkout-session.js';
import { orderIdOf, readCheckoutSessionState } from './checkout-session-state.js';
import type { Payments } from './payments.js';
import { expireOrder } from './settle-order.js';
import { verifyStripeEvent } from './stripe-clients.js';

/** Deliveries signed longer ago than this are refused, as Stripe's own libraries do by default. */
export const SIGNATURE_TOLERANCE_S = 300;

/** The Checkout Session events an order listens to (https://docs.stripe.com/payments/checkout/fulfill-orders). */
const SESSION_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

export type WebhookOutcome = SessionOutcome | 'ignored';

/**
 * One delivery to `POST /api/webhooks/stripe`: its raw body checked against `Stripe-Signature`
 * (400 when the signature is wrong or older than 300 s; 503 until a signing secret is set, so that
 * Stripe retries), then the order the session names brought in line with it. Events of other types,
 * and sessions that name no order of this gateway, are acknowledged and ignored. A failure past the
 * signature check (the database down) is left to throw: Stripe retries what was not answered 2xx.
 */
export async function handleStripeWebhook(
  payments: Payments,
  delivery: { body: unknown; signature: string | undefined },
): Promise<WebhookOutcome> {
  const secret = payments.settings().stripe_webhook_secret;
  if (secret === null) throw new GatewayError('stripe_webhook_not_configured');
  const event = verify(delivery, secret);
  if (!SESSION_EVENTS.has(event.type)) return 'ignored';
  const session = readCheckoutSessionState(event.data.object);
  const orderId = session && orderIdOf(session);
  const order = orderId === undefined ? undefined : await payments.repositories.orders.find(orderId);
  if (!session || !order) {
    payments.logger.info(
      { event: event.id, type: event.type },
      'Stripe event for no order of this gateway; ignored',
    );
    return 'ignored';
  }
  const { orderEvents } = payments.repositories;
  const replayed = await orderEvents.seen(order.id, event.id);
  await orderEvents.record({
    orderId: order.id,
    type: replayed ? 'webhook_replayed' : 'webhook_received',
    reference: event.id,
    detail: {
      event_type: event.type,
      session: session.id,
      status: session.status ?? null,
      payment_status: session.payment_status,
    },
  });
  if (event.type === 'checkout.session.async_payment_failed') {
    const expired = await expireOrder(payments, {
      order,
      by: 'webhook',
      reason: 'the delayed payment failed',
    });
    return expired ? 'expired' : 'not_pending';
  }
  return applyCheckoutSession(payments, { order, session, by: 'webhook' });
}

function verify(delivery: { body: unknown; signature: string | undefined }, secret: string): Stripe.Event {
  const body = Buffer.isBuffer(delivery.body) ? delivery.body : Buffer.alloc(0);
  try {
    return verifyStripeEvent({
      body,
      signature: delivery.signature ?? '',
      secret,
      toleranceSeconds: SIGNATURE_TOLERANCE_S,
    });
  } catch (error) {
    if ((error as { type?: unknown }).type === 'StripeSignatureVerificationError')
      throw new GatewayError('stripe_signature_invalid', { detail: signatureProblem(error as Error) });
    // Signed by Stripe, yet not an event: nothing to act on.
    throw invalidRequest(`the webhook body is not a Stripe event: ${(error as Error).message}`);
  }
}

/**
 * Our own words for a refused signature: the package's diagnostics may tell the sender the length
 * and last characters of the signing secret, which a sender without the secret must not learn.
 */
function signatureProblem(error: Error): string {
  if (error.message.includes('Timestamp outside the tolerance zone'))
    return `the signature is older than ${SIGNATURE_TOLERANCE_S} seconds`;
  if (error.message.includes('No stripe-signature header')) return 'no Stripe-Signature header';
  if (error.message.includes('No webhook payload')) return 'no body';
  return 'no signature matches the body (a wrong signing secret, or a body changed on the way)';
}
