import { randomBytes } from 'node:crypto';

/**
 * A new order id: `ord_` and 144 random bits. Order ids travel through Stripe and the browser's
 * address bar, so they must not be guessable or count the shop's sales.
 */
export function newOrderId(): string {
  return `ord_${randomBytes(18).toString('base64url')}`;
}
