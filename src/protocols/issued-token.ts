import type { IssuedToken, TokenIssuer } from '../ir/content.js';

/**
 * Tokens in fields that hold opaque strings (an Anthropic thinking signature, a Responses
 * reasoning item's `encrypted_content`). The protocol's own vendor's tokens are written as they
 * are; another vendor's are written behind a marker naming the issuer (`gemini:<value>`), so that
 * when a client echoes its history back, a token is returned to its issuer and never forwarded to
 * a vendor that would refuse it. Vendors' tokens are base64 or base64url text, which has no `:`,
 * so a marked value is never mistaken for a real one.
 */

/** What the token stands for: a signature over visible reasoning, or reasoning that is only data. */
export type TokenRole = 'signature' | 'redacted';

const ISSUERS: readonly TokenIssuer[] = ['anthropic', 'gemini', 'openai'];
const MARKED = /^(anthropic|gemini|openai)(-redacted)?:/;

export function writeIssuedToken(
  token: IssuedToken,
  options: { ownVendor: TokenIssuer | undefined; role?: TokenRole },
): string {
  if (token.issuer === options.ownVendor) return token.value;
  return `${token.issuer}${options.role === 'redacted' ? '-redacted' : ''}:${token.value}`;
}

/** Reads a value written by `writeIssuedToken`; an unmarked value is the own vendor's, as a `signature`. */
export function readIssuedToken(
  text: string,
  ownVendor: TokenIssuer,
): { token: IssuedToken; role: TokenRole } {
  const marked = MARKED.exec(text);
  if (!marked) return { token: { issuer: ownVendor, value: text }, role: 'signature' };
  return {
    token: { issuer: marked[1] as TokenIssuer, value: text.slice(marked[0].length) },
    role: marked[2] ? 'redacted' : 'signature',
  };
}

export function isTokenIssuer(value: unknown): value is TokenIssuer {
  return ISSUERS.includes(value as TokenIssuer);
}
