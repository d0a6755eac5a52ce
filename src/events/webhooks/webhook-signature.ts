import { createHmac } from 'node:crypto';

/**
 * `X-Gateway-Signature` (admin-api section 10.1): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>" keyed by webhook_secret>`.
 */
export function webhookSignature(body: string, secret: string, nowS: number): string {
  const digest = createHmac('sha256', secret).update(`${nowS}.${body}`).digest('hex');
  return `t=${nowS},v1=${digest}`;
}
