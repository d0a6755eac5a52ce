import { randomBytes } from 'node:crypto';
import { hashKey } from './hash-key.js';

/** 144 random bits: far beyond guessing, so a fast digest stores them as safely as a slow one. */
const RANDOM_BYTES = 18;
const HINT_CHARACTERS = 4;

export interface SecretCode {
  /** Shown once, to whoever created it. */
  code: string;
  /** What is stored to recognise it. */
  hash: string;
  /** What lists show: the prefix, the first and the last few characters. */
  hint: string;
}

/** A new single-use code (invite or redemption): `<prefix>` and 24 base64url characters. */
export function newSecretCode(prefix: string): SecretCode {
  const random = randomBytes(RANDOM_BYTES).toString('base64url');
  const code = `${prefix}${random}`;
  const hint = `${prefix}${random.slice(0, HINT_CHARACTERS)}...${random.slice(-HINT_CHARACTERS)}`;
  return { code, hash: hashSecretCode(code), hint };
}

/** The stored form of a code someone presents; surrounding spaces from copying are forgiven. */
export function hashSecretCode(code: string): string {
  return hashKey(code.trim());
}
