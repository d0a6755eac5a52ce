import { describe, expect, it } from 'vitest';
import { PII_DETECTORS } from '../../src/guardrails/pii/find-pii-matches.js';
import { redactPii } from '../../src/guardrails/redact-pii.js';

const MEGABYTE = 1_000_000;
const filled = (unit: string) => unit.repeat(Math.ceil(MEGABYTE / unit.length)).slice(0, MEGABYTE);

/**
 * Inputs that make a regex with nested or overlapping quantifiers, or one retried at every
 * position of a long run, take quadratic or exponential time: long runs of what each pattern reads,
 * near misses repeated, and separators between them.
 */
const ADVERSARIAL: Record<string, string> = {
  letters: 'a'.repeat(MEGABYTE),
  capitals: 'A'.repeat(MEGABYTE),
  digits: '1'.repeat(MEGABYTE),
  'spaced digits': filled('1 '),
  'hyphenated digits': filled('1-'),
  'spaced zeros': filled('0 '),
  'at signs': '@'.repeat(MEGABYTE),
  'local parts and at signs': filled('a@'),
  'dotted local parts': filled('a.a@'),
  'an address with endless labels': 'a@' + filled('a.'),
  dots: '.'.repeat(MEGABYTE),
  'plus signs': filled('+1 '),
  parentheses: filled('+1 (1'),
  'trunk prefixes': filled('(0'),
  'key prefixes': filled('sk-'),
  'JWT headers': filled('eyJ'),
  'JWT segments': filled('eyJaaaaaaaa.'),
  'bearer words': filled('Bearer '),
  'one bearer token': 'Bearer ' + 'a'.repeat(MEGABYTE),
  'IBAN starts': filled('AB12 '),
  'IBAN groups': filled('GB82 WEST '),
  'base64 run': filled('aA1/'),
  'base64 words': filled('aA1/ '),
  padding: filled('aA1='),
  'near-UUIDs': filled('123e4567-'),
  'near-keys': filled('aB3'.repeat(10) + 'x '),
};

/** Catastrophic backtracking takes minutes on a megabyte; linear scans take milliseconds. */
const BUDGET_MS = 500;

describe('every detector runs in linear time', () => {
  for (const detect of PII_DETECTORS) {
    it(`${detect.name} reads a megabyte of adversarial input in well under a second`, () => {
      detect('warm up 4111 1111 1111 1111 ann@example.com +1 415 555 2671');
      for (const [name, text] of Object.entries(ADVERSARIAL)) {
        const started = performance.now();
        detect(text);
        expect(performance.now() - started, name).toBeLessThan(BUDGET_MS);
      }
    });
  }

  it('redactPii as a whole reads each of them in well under a second', () => {
    for (const [name, text] of Object.entries(ADVERSARIAL)) {
      const started = performance.now();
      redactPii(text);
      expect(performance.now() - started, name).toBeLessThan(2 * BUDGET_MS);
    }
  });
});
