import type { PiiMatch } from './pii-match.js';

/**
 * JSON Web Tokens in compact form (RFC 7519 section 3, RFC 7515 section 7.1): three base64url
 * segments joined by dots, the first the encoding of a JSON object, so it starts `eyJ` (`{"`). The
 * signature may be empty (an unsecured JWT). Starts only where a token starts and the segments'
 * class excludes the dot, so each segment is read a bounded number of times: linear time.
 */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

export function findJwts(text: string): PiiMatch[] {
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(JWT))
    matches.push({ kind: 'secret', start: match.index, end: match.index + match[0].length });
  return matches;
}
