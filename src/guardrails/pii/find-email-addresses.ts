import type { PiiMatch } from './pii-match.js';

/**
 * An RFC 5322-ish address: a dot-atom local part of the usual characters (at most 64, RFC 5321
 * section 4.5.3.1.1), `@`, one to ten labels and a letters-only top-level domain. Quoted local parts,
 * IP literals and non-ASCII addresses are not recognised.
 *
 * Linear time: the lookbehind lets a match start only where a run of local-part characters starts,
 * so a long run (`'a'.repeat(1e6)`) is tried once, and every quantifier is bounded, so each try
 * reads a bounded number of characters. The label and the dot never overlap, so the domain has one
 * parse.
 */
const EMAIL_ADDRESS =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,10}[A-Za-z]{2,63}(?![A-Za-z0-9-])/g;

export function findEmailAddresses(text: string): PiiMatch[] {
  if (!text.includes('@')) return [];
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(EMAIL_ADDRESS))
    matches.push({ kind: 'email', start: match.index, end: match.index + match[0].length });
  return matches;
}
