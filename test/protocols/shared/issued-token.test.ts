import { describe, expect, test } from 'vitest';
import { readIssuedToken, writeIssuedToken } from '../../../src/protocols/issued-token.js';

describe('issued tokens in opaque fields', () => {
  test("the own vendor's token is written as it is, and read back as its own", () => {
    const text = writeIssuedToken({ issuer: 'anthropic', value: 'EqQBCkYI+/x=' }, { ownVendor: 'anthropic' });
    expect(text).toBe('EqQBCkYI+/x=');
    expect(readIssuedToken(text, 'anthropic')).toEqual({
      token: { issuer: 'anthropic', value: 'EqQBCkYI+/x=' },
      role: 'signature',
    });
  });

  test("another vendor's token is marked with its issuer and comes back tagged", () => {
    const text = writeIssuedToken({ issuer: 'gemini', value: 'CiQBjz1rX' }, { ownVendor: 'anthropic' });
    expect(text).toBe('gemini:CiQBjz1rX');
    expect(readIssuedToken(text, 'anthropic').token).toEqual({ issuer: 'gemini', value: 'CiQBjz1rX' });
  });

  test('redacted data is told apart from a signature', () => {
    const text = writeIssuedToken(
      { issuer: 'anthropic', value: 'RXJy' },
      { ownVendor: 'openai', role: 'redacted' },
    );
    expect(text).toBe('anthropic-redacted:RXJy');
    expect(readIssuedToken(text, 'openai')).toEqual({
      token: { issuer: 'anthropic', value: 'RXJy' },
      role: 'redacted',
    });
  });

  test('a protocol without tokens of its own marks every token', () => {
    expect(writeIssuedToken({ issuer: 'openai', value: 'gAAAA' }, { ownVendor: undefined })).toBe(
      'openai:gAAAA',
    );
  });

  test('an unmarked value, or a marker of no known vendor, is the own vendor token', () => {
    expect(readIssuedToken('mistral:abc', 'gemini').token).toEqual({
      issuer: 'gemini',
      value: 'mistral:abc',
    });
  });
});
