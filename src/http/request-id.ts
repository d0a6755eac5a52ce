import { randomBytes } from 'node:crypto';

/** The response header that carries the request id on every answer (client-api section 5, rule 7). */
export const REQUEST_ID_HEADER = 'X-Gateway-Request-Id';

const instancePrefix = randomBytes(8).toString('hex');
let sequence = 0;

/**
 * 32 hex characters: a random prefix per process, then a counter. Unique across instances
 * without a random draw per request.
 */
export function nextRequestId(): string {
  sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
  return instancePrefix + sequence.toString(16).padStart(16, '0');
}
