import { z } from 'zod';

/**
 * The members of a Checkout Session the gateway reads, from a webhook's event or from
 * `GET /v1/checkout/sessions/{id}` (https://docs.stripe.com/api/checkout/sessions/object).
 * Lenient: Stripe adds members freely.
 */
const checkoutSessionStateSchema = z.looseObject({
  id: z.string(),
  status: z.string().nullable().optional(),
  payment_status: z.string(),
  amount_total: z.number().nullable().optional(),
  currency: z.string().nullable().optional(),
  client_reference_id: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

export type CheckoutSessionState = z.infer<typeof checkoutSessionStateSchema>;

/** The session's state, or undefined when what came is not a Checkout Session. */
export function readCheckoutSessionState(value: unknown): CheckoutSessionState | undefined {
  const parsed = checkoutSessionStateSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The order a session was made for: `metadata.order_id`, else `client_reference_id`. */
export function orderIdOf(session: CheckoutSessionState): string | undefined {
  const id = session.metadata?.order_id ?? session.client_reference_id ?? undefined;
  return id?.startsWith('ord_') ? id : undefined;
}
