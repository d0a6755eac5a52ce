import { GatewayError } from '../errors/gateway-error.js';
import type { AttemptTicket, LoginThrottle } from '../limits/login-throttle.js';

/**
 * Counts an attempt at something guessable (sign-in, sign-up, a redemption code) against its
 * subjects, or refuses it with 429 `too_many_attempts` and `Retry-After` when one of them has
 * failed too often (admin-api section 8). The attempt counts as failed until the caller reports
 * its success to the throttle with the ticket.
 */
export async function beginThrottledAttempt(
  throttle: LoginThrottle,
  subjects: readonly string[],
): Promise<AttemptTicket> {
  const decision = await throttle.begin(subjects);
  if (decision.allowed) return decision.ticket;
  const retryAfter = decision.retryAfterSeconds;
  throw new GatewayError(
    'too_many_attempts',
    { retryAfter },
    { headers: { 'retry-after': `${retryAfter}` } },
  );
}
