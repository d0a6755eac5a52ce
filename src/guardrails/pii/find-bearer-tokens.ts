import type { PiiMatch } from './pii-match.js';

/**
 * The credential after the `Bearer` scheme of an `Authorization` header (RFC 6750 section 2.1,
 * token68 syntax), wherever it appears: a pasted header, a curl command, a log line. The scheme
 * word stays; only the token is redacted. Starts only at the word `Bearer`, and the token is one
 * character class then the padding: linear time.
 */
const BEARER_TOKEN = /(?<![A-Za-z])(?:Bearer|bearer|BEARER)[ \t]{1,8}([A-Za-z0-9._~+/-]+=*)/g;

/**
 * A token needs 8 characters and a digit, or 20 characters: real tokens qualify, while prose
 * (`Bearer authentication`) and placeholders (`Bearer YOUR_API_KEY`, `Bearer <token>`) do not.
 */
function looksLikeToken(token: string): boolean {
  return token.length >= 20 || (token.length >= 8 && /\d/.test(token));
}

export function findBearerTokens(text: string): PiiMatch[] {
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(BEARER_TOKEN)) {
    const token = match[1]!;
    if (!looksLikeToken(token)) continue;
    const end = match.index + match[0].length;
    matches.push({ kind: 'secret', start: end - token.length, end });
  }
  return matches;
}
