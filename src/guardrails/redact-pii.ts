import { findPiiMatches } from './pii/find-pii-matches.js';
import type { PiiKind, PiiMatch } from './pii/pii-match.js';

export type { PiiKind } from './pii/pii-match.js';

export interface RedactedText {
  text: string;
  /** How many spans of each kind were replaced; a kind with none is absent. */
  found: Partial<Record<PiiKind, number>>;
}

/**
 * `text` with every e-mail address, phone number, Luhn-valid card number, IBAN with a valid
 * checksum and API-key-like secret replaced by `[REDACTED:<kind>]` (admin-api section 12,
 * `redact_pii`); the same string when nothing was found. Overlapping finds are replaced once: the
 * earliest, then the longest, wins. Each detector runs in linear time, and a text without a digit,
 * an `@` or a long token is returned after one scan.
 */
export function redactPii(text: string): RedactedText {
  return replaceMatches(text, findPiiMatches(text));
}

/** `text` with each of `matches` (in order, without overlaps) replaced by `[REDACTED:<kind>]`. */
export function replaceMatches(text: string, matches: readonly PiiMatch[]): RedactedText {
  if (matches.length === 0) return { text, found: {} };
  const found: Partial<Record<PiiKind, number>> = {};
  const parts: string[] = [];
  let position = 0;
  for (const match of matches) {
    parts.push(text.slice(position, match.start), `[REDACTED:${match.kind}]`);
    position = match.end;
    found[match.kind] = (found[match.kind] ?? 0) + 1;
  }
  parts.push(text.slice(position));
  return { text: parts.join(''), found };
}
