import { describe, expect, it } from 'vitest';
import { chooseMatches } from '../../src/guardrails/pii/choose-matches.js';
import { PII_DETECTORS } from '../../src/guardrails/pii/find-pii-matches.js';
import { mightContainPii } from '../../src/guardrails/pii/might-contain-pii.js';
import { redactPii } from '../../src/guardrails/redact-pii.js';
import { seededRandom } from '../helpers/seeded-random.js';

const apiKey = 'sk-proj-' + 'aB3dE5fG7hJ9kLmN2pQ4rS6tU8vWxYz0';

describe('redactPii', () => {
  it('replaces each find with its kind and counts the replacements per kind', () => {
    const text =
      'Hi, I am ann@example.com, +44 20 7946 0958 or 030 1234567. Card 4111 1111 1111 1111, ' +
      `IBAN GB82 WEST 1234 5698 7654 32. Key ${apiKey}.`;
    expect(redactPii(text)).toEqual({
      text:
        'Hi, I am [REDACTED:email], [REDACTED:phone] or [REDACTED:phone]. Card [REDACTED:card], ' +
        'IBAN [REDACTED:iban]. Key [REDACTED:secret].',
      found: { email: 1, phone: 2, card: 1, iban: 1, secret: 1 },
    });
  });

  it('returns the text itself and nothing found when there is nothing to redact', () => {
    const text = 'In 2024 we sold 1,234,567 units at $3.14159 each (order #123456, v1.2.3).';
    const result = redactPii(text);
    expect(result.text).toBe(text);
    expect(result.found).toEqual({});
    expect(redactPii('')).toEqual({ text: '', found: {} });
  });

  it('has nothing more to redact in a redacted text', () => {
    const once = redactPii(`mail ann@example.com, key ${apiKey}, card 5555-5555-5555-4444`).text;
    expect(redactPii(once)).toEqual({ text: once, found: {} });
  });

  it('replaces a span found by several detectors once', () => {
    // The bearer token is also a prefixed key: one replacement, one count.
    expect(redactPii(`Authorization: Bearer ${apiKey}`)).toEqual({
      text: 'Authorization: Bearer [REDACTED:secret]',
      found: { secret: 1 },
    });
    // A random-looking local part is a token too; the address, which starts as early and is longer, wins.
    expect(redactPii('8fK2xQ9vLm3NpR7sT1wY4zB6cD0eGhJk@example.com')).toEqual({
      text: '[REDACTED:email]',
      found: { email: 1 },
    });
  });

  it('lets the earliest match win over a later, longer one it overlaps', () => {
    // The phone number (+1 and twelve digits) starts first; the card starting inside it is not replaced again.
    expect(redactPii('+1 4111 1111 1111 1111').text).toBe('[REDACTED:phone] 1111');
  });
});

describe('chooseMatches', () => {
  it('keeps the earliest, then the longest, then the first listed, and drops what overlaps them', () => {
    expect(
      chooseMatches([
        { kind: 'secret', start: 5, end: 30 },
        { kind: 'phone', start: 0, end: 10 },
        { kind: 'card', start: 0, end: 8 },
        { kind: 'email', start: 30, end: 40 },
        { kind: 'iban', start: 30, end: 40 },
        { kind: 'secret', start: 35, end: 50 },
      ]),
    ).toEqual([
      { kind: 'phone', start: 0, end: 10 },
      { kind: 'email', start: 30, end: 40 },
    ]);
  });
});

describe('the quick look for clues', () => {
  it('sees a clue in everything some detector finds', () => {
    const finds = [
      'ann@example.com',
      '+44 20 7946 0958',
      '4111 1111 1111 1111',
      'GB82 WEST 1234 5698 7654 32',
      'AKIAIOSFODNN7EXAMPLE',
      'xoxb-abcdefghijklmnopqrstuvwxyz',
      'Bearer abcdefghijklmnopqrstuvwxyz',
      'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.',
    ];
    for (const text of finds) {
      expect(
        PII_DETECTORS.some((detect) => detect(text).length > 0),
        text,
      ).toBe(true);
      expect(mightContainPii(text), text).toBe(true);
    }
  });

  it('sees none in prose, and then no detector finds anything either', () => {
    const random = seededRandom(42);
    const alphabet =
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-.+/=~      \n,;:!?()[]{}<>"\'#$%&*';
    let checked = 0;
    for (let sample = 0; sample < 2000; sample++) {
      let text = '';
      const length = 1 + Math.floor(random() * 200);
      while (text.length < length) text += alphabet[Math.floor(random() * alphabet.length)];
      if (mightContainPii(text)) continue;
      checked++;
      for (const detect of PII_DETECTORS) expect(detect(text), text).toEqual([]);
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('returns a megabyte of prose as it was, quickly', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog, and everyone watches it quietly. ';
    const prose = sentence.repeat(Math.ceil(1_000_000 / sentence.length));
    expect(mightContainPii(prose)).toBe(false);
    const started = performance.now();
    const result = redactPii(prose);
    const elapsed = performance.now() - started;
    expect(result.text).toBe(prose);
    expect(result.found).toEqual({});
    expect(elapsed).toBeLessThan(250);
  });
});
