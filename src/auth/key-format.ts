import { randomInt } from 'node:crypto';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_LENGTH = 48;
const KEY_PREFIX = 'sk-';

/** A new key: `sk-` and 48 random characters. */
export function generateKey(): string {
  let body = '';
  for (let index = 0; index < KEY_LENGTH; index += 1) body += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return KEY_PREFIX + body;
}

/** What reads show instead of the key. */
export function maskKey(key: string): string {
  const body = stripKeyPrefix(key);
  if (body.length < 12) return `${KEY_PREFIX}****`;
  return `${KEY_PREFIX}${body.slice(0, 4)}...${body.slice(-4)}`;
}

export function stripKeyPrefix(key: string): string {
  return key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key;
}

export interface PresentedKey {
  /** The key without `sk-` and without a channel suffix: what the stored hash covers. */
  secret: string;
  /** `-<number>` suffix: the channel an admin key pins. */
  channelId: number | undefined;
}

const CHANNEL_SUFFIX = /^(.+)-(\d+)$/;

/** Parses a key as clients send it: `sk-` optional, a `-<channel id>` suffix allowed (client-api section 5). */
export function parsePresentedKey(raw: string): PresentedKey | undefined {
  const secret = stripKeyPrefix(raw.trim());
  if (secret === '') return undefined;
  const suffix = CHANNEL_SUFFIX.exec(secret);
  if (suffix?.[1] && suffix[2]) return { secret: suffix[1], channelId: Number(suffix[2]) };
  return { secret, channelId: undefined };
}
