/** Anything shaped like a Stripe key or signing secret, wherever it turns up in a message. */
const STRIPE_SECRET = /\b(sk|rk|whsec)_[A-Za-z0-9_*+/=-]+/g;

/**
 * What a failed Stripe call says, fit for a client and a log: Stripe's own message and code, or
 * the connection failure, with anything shaped like a secret replaced. Stripe masks keys in its
 * messages already; this holds even for a message that would not.
 */
export function describeStripeError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const fields = error as Error & { type?: unknown; code?: unknown; statusCode?: unknown };
  const parts: string[] = [];
  if (typeof fields.statusCode === 'number') parts.push(`HTTP ${fields.statusCode}`);
  if (typeof fields.code === 'string' && fields.code !== '') parts.push(fields.code);
  else if (typeof fields.type === 'string' && fields.type !== '') parts.push(fields.type);
  const prefix = parts.length > 0 ? `${parts.join(' ')}: ` : '';
  return `${prefix}${error.message}`
    .replace(STRIPE_SECRET, (_match, kind: string) => `${kind}_****`)
    .slice(0, 500);
}
