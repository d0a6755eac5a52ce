import { isLuhnValid } from './is-luhn-valid.js';
import type { PiiMatch } from './pii-match.js';

const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/**
 * At least 13 digits, in groups joined by single spaces or hyphens, not inside a word or a signed
 * or decimal number. Each repeated unit holds exactly one digit and its alternatives start with
 * different characters, and nothing follows the repetition, so each start is read once without
 * backtracking: linear time.
 */
const DIGIT_RUN = /(?<![\w.,+/-])\d(?:\d|[ -]\d){12,}/g;
const GLUED = /^(?:\w|[.,]\d)/;

/**
 * Payment card numbers: 13 to 19 digits (ISO/IEC 7812), written as one group or as a first group of
 * four followed by groups of four to six (the last may have three) with one kind of separator (`4111 1111 1111 1111`,
 * `5555-5555-5555-4444`, `3782 822463 10005`), that pass the Luhn check and start with 2-6, the
 * major industry identifiers of banking and travel cards (Mastercard 2-series, Amex, Diners, JCB,
 * Visa, Mastercard, Discover, UnionPay, Maestro). The first digit keeps millisecond timestamps and
 * most database ids (which start with 1) from being taken for cards one time in ten.
 *
 * A run of several groups may hold a card and something else (`4111 1111 1111 1111 12/25`): each
 * group boundary is tried as a start, and the longest valid number from there is taken.
 */
export function findCardNumbers(text: string): PiiMatch[] {
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(DIGIT_RUN)) {
    let run = match[0];
    // A last group glued to a word (`1111th`) or a decimal part (`1111.50`) is not a card's.
    const after = match.index + run.length;
    if (GLUED.test(text.slice(after, after + 2))) run = run.slice(0, lastGroupStart(run));
    // Groups are read in place: a run may hold half a million of them, and most can start nothing.
    for (let start = 0; start < run.length;) {
      const end = longestCardFrom(run, start);
      if (end !== undefined)
        matches.push({ kind: 'card', start: match.index + start, end: match.index + end });
      start = (end ?? groupEnd(run, start)) + 1;
    }
  }
  return matches;
}

/** Where the longest card number starting at the group at `start` ends, if there is one. */
function longestCardFrom(run: string, start: number): number | undefined {
  const headEnd = groupEnd(run, start);
  const headLength = headEnd - start;
  if (headLength >= MIN_DIGITS) return isCardNumber(run.slice(start, headEnd)) ? headEnd : undefined;
  if (headLength !== 4) return undefined;
  const separator = run.charAt(headEnd);
  let digits = run.slice(start, headEnd);
  let groups = 1;
  let found: number | undefined;
  for (let position = headEnd; position < run.length && run.charAt(position) === separator;) {
    const end = groupEnd(run, position + 1);
    const length = end - position - 1;
    if (length < 3 || length > 6) break;
    digits += run.slice(position + 1, end);
    if (digits.length > MAX_DIGITS) break;
    groups++;
    if (groups >= 3 && isCardNumber(digits)) found = end;
    // A group of three can only be the last (`4111 1111 1111 1111 111`).
    if (length === 3) break;
    position = end;
  }
  return found;
}

function groupEnd(run: string, start: number): number {
  let end = start;
  while (end < run.length && isDigit(run.charCodeAt(end))) end++;
  return end;
}

function lastGroupStart(run: string): number {
  let start = run.length;
  while (start > 0 && isDigit(run.charCodeAt(start - 1))) start--;
  return start;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isCardNumber(digits: string): boolean {
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) return false;
  const majorIndustry = digits.charCodeAt(0) - 48;
  return majorIndustry >= 2 && majorIndustry <= 6 && isLuhnValid(digits);
}
