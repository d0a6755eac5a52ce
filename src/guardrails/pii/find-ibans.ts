import { hasValidIbanChecksum } from './has-valid-iban-checksum.js';
import { IBAN_LENGTHS, IBAN_MAX_LENGTH, IBAN_MIN_LENGTH } from './iban-lengths.js';
import type { PiiMatch } from './pii-match.js';

/**
 * A country code, two check digits and the BBAN in capitals, either in one piece
 * (`DE89370400440532013000`) or in the print form's groups of four after single spaces
 * (`GB82 WEST 1234 5698 7654 32`). Upper case only: a lower-case run of this shape is far more
 * often something else. Bounded quantifiers and a start only where an alphanumeric run starts
 * keep it linear.
 */
const IBAN_CANDIDATE =
  /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)(?![A-Za-z0-9])/g;

/**
 * IBANs with a valid checksum and, for the countries of the registry, that country's length. The
 * grouped form may run into a following word in capitals (`BE68 5390 0754 7034 EUR`), so it is cut
 * at the group boundary where the country's length is reached; for other countries the longest
 * prefix of 15 to 34 characters with a valid checksum is taken.
 */
export function findIbans(text: string): PiiMatch[] {
  if (!/\d/.test(text)) return [];
  const matches: PiiMatch[] = [];
  for (const candidate of text.matchAll(IBAN_CANDIDATE)) {
    const length = ibanLengthIn(candidate[0]);
    if (length !== undefined)
      matches.push({ kind: 'iban', start: candidate.index, end: candidate.index + length });
  }
  return matches;
}

/** How many characters of `candidate` (spaces included) make a valid IBAN, if any do. */
function ibanLengthIn(candidate: string): number | undefined {
  const expected = IBAN_LENGTHS.get(candidate.slice(0, 2));
  const ends: number[] = [];
  for (let index = 0; index <= candidate.length; index++)
    if (index === candidate.length || candidate[index] === ' ') ends.push(index);
  for (const end of ends.reverse()) {
    const compact = candidate.slice(0, end).replaceAll(' ', '');
    const fits =
      expected === undefined
        ? compact.length >= IBAN_MIN_LENGTH && compact.length <= IBAN_MAX_LENGTH
        : compact.length === expected;
    if (fits && hasValidIbanChecksum(compact)) return end;
  }
  return undefined;
}
