import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceivedWebhook } from './webhook-receiver.js';

/**
 * What an operator's receiver does with `X-Gateway-Signature` (admin-api section 10.1), written
 * here from the spec alone: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed by
 * the secret, compared in constant time. Answers the signed time, or why the signature is refused.
 */
export function verifyWebhookSignature(
  received: ReceivedWebhook,
  secret: string,
): { ok: true; timestamp: number } | { ok: false; reason: string } {
  const header = received.headers['x-gateway-signature'];
  if (typeof header !== 'string') return { ok: false, reason: 'no X-Gateway-Signature header' };
  const parts = new Map(
    header.split(',').map((part) => {
      const equals = part.indexOf('=');
      return [part.slice(0, equals), part.slice(equals + 1)] as const;
    }),
  );
  const timestamp = parts.get('t');
  const signature = parts.get('v1');
  if (timestamp === undefined || !/^\d+$/.test(timestamp)) return { ok: false, reason: `bad t in ${header}` };
  if (signature === undefined || !/^[0-9a-f]{64}$/.test(signature))
    return { ok: false, reason: `bad v1 in ${header}` };
  const expected = createHmac('sha256', secret).update(`${timestamp}.${received.rawBody}`).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    return { ok: false, reason: 'digest differs' };
  return { ok: true, timestamp: Number(timestamp) };
}
