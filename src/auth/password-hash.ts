import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Console passwords are stored as scrypt hashes: `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url).
 * The cost parameters travel with each hash, so they can be raised later without breaking old ones.
 * Defaults follow the OWASP password storage cheat sheet (N=2^15, r=8, p=3).
 */
const SCHEME = 'scrypt';
const DEFAULT_COST = { N: 2 ** 15, r: 8, p: 3 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Refuses stored parameters that would make one verification take absurd memory or time. */
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, HASH_BYTES, DEFAULT_COST);
  const { N, r, p } = DEFAULT_COST;
  return [SCHEME, N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored value that is not one of our hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return false;
  const hash = await derive(password, parsed.salt, parsed.hash.length, parsed.cost);
  return timingSafeEqual(hash, parsed.hash);
}

function parseStoredHash(stored: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== SCHEME) return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const positive = [N, r, p].every((value) => Number.isSafeInteger(value) && value > 0);
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!positive || !powerOfTwo || p > 16 || memoryFor({ N, r, p }) > MAX_MEMORY_BYTES) return undefined;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const hash = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || hash.length === 0) return undefined;
  return { cost: { N, r, p }, salt, hash };
}

function derive(password: string, salt: Buffer, length: number, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: memoryFor(cost) + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function memoryFor(cost: ScryptCost): number {
  return 128 * cost.N * cost.r;
}
