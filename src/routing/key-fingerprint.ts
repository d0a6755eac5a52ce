import { createHash } from 'node:crypto';

/**
 * A short SHA-256 fingerprint that names an upstream key in shared state and logs. The key itself
 * never leaves the process; 12 hex digits (48 bits) tell a channel's keys apart without making
 * the fingerprint a useful lookup for the secret.
 */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}
