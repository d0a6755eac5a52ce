import type { PiiMatch } from './pii-match.js';

/**
 * Phone numbers, conservatively: a plain run of digits is never one, however long, because years,
 * prices, token counts, timestamps and order ids look the same. A number is recognised only in one
 * of three written shapes, with 7 to 15 digits in all (E.164 allows at most 15,
 * https://www.itu.int/rec/T-REC-E.164):
 *
 * - international: `+` and a country code, then digits, optionally grouped by single spaces, dots or
 *   hyphens, with at most one parenthesised group (`+1 (415) 555-2671`, `+44 (0)20 7946 0958`);
 * - North American: `(415) 555-2671`, `415-555-2671`, `415.555.2671`, optionally after `1 `; area
 *   code and exchange start with 2-9, as the numbering plan requires (https://nationalnanpa.com);
 * - national with a trunk prefix `0` and at least one separator: `030 1234567`, `(030) 1234567`,
 *   `020 7946 0958`, `06 12 34 56 78`, `090-1234-5678`. Dots are not separators here (they make
 *   versions and decimals), and three groups shaped like a date (`01-02-2024`) are not a number.
 *
 * A number never starts or ends inside a word or a longer number: not after a letter, digit, sign
 * or decimal point, nor after a digit and one separator, and not before a letter, a digit or a
 * decimal part.
 *
 * Not libphonenumber-js: its text search finds national numbers only for one default country,
 * which a gateway serving everyone does not have, so its country metadata would be loaded for the
 * international shape alone, which a pattern covers. Fixed shapes are also predictable: what is
 * redacted does not change with a metadata update.
 *
 * Linear time: every quantifier is bounded, so each start reads a bounded number of characters,
 * and the lookbehind keeps a run of separated digits (`'1 '.repeat(5e5)`) from being retried at
 * every digit.
 */
const NOT_INSIDE_NUMBER = String.raw`(?<![\w+.,/-]|\d[ ./-])`;
const NOT_CONTINUED = String.raw`(?!\w|[.,/-]\d)`;

const PHONE_SHAPES = [
  new RegExp(String.raw`(?<![\w+])\+\d{1,3}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d){4,14}${NOT_CONTINUED}`, 'g'),
  new RegExp(
    String.raw`${NOT_INSIDE_NUMBER}(?:1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])[2-9]\d{2}[ .-]\d{4}${NOT_CONTINUED}`,
    'g',
  ),
  new RegExp(
    String.raw`${NOT_INSIDE_NUMBER}(?:\(0\d{1,4}\) ?|0\d{1,4}[ /-])\d{2,8}(?:[ /-]\d{2,8}){0,4}${NOT_CONTINUED}`,
    'g',
  ),
];

const MIN_DIGITS = 7;
const MAX_DIGITS = 15;

export function findPhoneNumbers(text: string): PiiMatch[] {
  if (!/\d/.test(text)) return [];
  const matches: PiiMatch[] = [];
  for (const shape of PHONE_SHAPES) {
    for (const match of text.matchAll(shape)) {
      const groups: string[] = match[0].match(/\d+/g) ?? [];
      const digits = groups.reduce((count, group) => count + group.length, 0);
      if (digits < MIN_DIGITS || digits > MAX_DIGITS || isDateShaped(groups)) continue;
      matches.push({ kind: 'phone', start: match.index, end: match.index + match[0].length });
    }
  }
  return matches;
}

/** `2024-01-15`, `01-02-2024`, `15/01/24`: three groups of a year, a month and a day in some order. */
function isDateShaped(groups: readonly string[]): boolean {
  if (groups.length !== 3) return false;
  const [first, second, third] = groups.map((group) => group.length) as [number, number, number];
  if (second > 2) return false;
  return (first === 4 && third <= 2) || (first <= 2 && (third === 2 || third === 4));
}
