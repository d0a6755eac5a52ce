import { hash, timingSafeEqual } from 'node:crypto';

/**
 * API keys carry 48 random characters, so a fast digest resists guessing as well as a slow one;
 * only console passwords need a slow hash (see password-hash.ts).
 */
export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
