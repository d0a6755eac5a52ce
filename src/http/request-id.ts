import { randomBytes } from 'node:crypto';

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
