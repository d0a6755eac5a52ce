import { GatewayError } from '../errors/gateway-error.js';
import type { RateDecision } from './rate-limiter.js';

/** The 429 of a key's refused rpm or tpm limit (client-api section 7), with its `Retry-After`. */
export function rateLimitError(
  key: { rpm: number | null; tpm: number | null },
  refusal: Extract<RateDecision, { allowed: false }>,
): GatewayError {
  const limit = refusal.limit === 'rpm' ? `${key.rpm} requests per minute` : `${key.tpm} tokens per minute`;
  return new GatewayError(
    'rate_limit_exceeded',
    { limit, retryAfter: refusal.retryAfterSeconds },
    { headers: { 'retry-after': String(refusal.retryAfterSeconds) } },
  );
}
