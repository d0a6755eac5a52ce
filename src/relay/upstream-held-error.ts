import { GatewayError } from '../errors/gateway-error.js';
import type { PairHold } from '../routing/channel-health.js';

/**
 * The gateway's own 429 while every candidate is held after an upstream 429 with `Retry-After`
 * (admin-api section 7): the upstream's last message, and `Retry-After` the whole seconds left.
 */
export function upstreamHeldError(hold: PairHold, nowMs: number = Date.now()): GatewayError {
  const seconds = Math.max(1, Math.ceil((hold.untilMs - nowMs) / 1000));
  return new GatewayError(
    'upstream_held',
    { message: hold.message },
    { headers: { 'retry-after': String(seconds) } },
  );
}
