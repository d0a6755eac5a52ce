import { describe, expect, it } from 'vitest';
import { generateKey, maskKey, parsePresentedKey, stripKeyPrefix } from '../../src/auth/key-format.js';

describe('generateKey', () => {
  it('is sk- and 48 alphanumeric characters, different each time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
  });
});

describe('stripKeyPrefix and maskKey', () => {
  it('strip only a leading sk-', () => {
    expect(stripKeyPrefix('sk-abc')).toBe('abc');
    expect(stripKeyPrefix('abc')).toBe('abc');
    expect(stripKeyPrefix('xsk-abc')).toBe('xsk-abc');
    expect(stripKeyPrefix('sk-sk-abc')).toBe('sk-abc');
  });

  it('mask a key to its first and last four characters', () => {
    expect(maskKey('sk-ABCDefghijklmnopqrstuvwxyz0123456789ABCDEFGHWXYZ')).toBe('sk-ABCD...WXYZ');
    expect(maskKey('ABCDefghijklWXYZ')).toBe('sk-ABCD...WXYZ');
    expect(maskKey('sk-short')).toBe('sk-****');
  });
});

describe('parsePresentedKey (client-api section 5)', () => {
  const secret = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl';

  it('takes the key with or without sk-, trimmed', () => {
    expect(parsePresentedKey(`sk-${secret}`)).toEqual({ secret, channelId: undefined });
    expect(parsePresentedKey(secret)).toEqual({ secret, channelId: undefined });
    expect(parsePresentedKey(`  sk-${secret} `)).toEqual({ secret, channelId: undefined });
  });

  it('splits a -<number> channel suffix', () => {
    expect(parsePresentedKey(`sk-${secret}-12`)).toEqual({ secret, channelId: 12 });
    expect(parsePresentedKey(`${secret}-0`)).toEqual({ secret, channelId: 0 });
  });

  it('leaves a suffix that is not a number in the key', () => {
    expect(parsePresentedKey(`sk-${secret}-abc`)).toEqual({ secret: `${secret}-abc`, channelId: undefined });
    expect(parsePresentedKey(`sk-${secret}-`)).toEqual({ secret: `${secret}-`, channelId: undefined });
    expect(parsePresentedKey('-12')).toEqual({ secret: '-12', channelId: undefined });
  });

  it('has no key when nothing is left', () => {
    expect(parsePresentedKey('')).toBeUndefined();
    expect(parsePresentedKey('sk-')).toBeUndefined();
    expect(parsePresentedKey('   ')).toBeUndefined();
  });
});
