import { verify, type KeyObject } from 'node:crypto';
import { isRecord } from './fake-upstream.js';

/** A service account the fake token endpoint knows: its email, key id and public key. */
export interface KnownServiceAccount {
  clientEmail: string;
  privateKeyId: string;
  publicKey: KeyObject;
}

export interface CheckedAssertion {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  account: KnownServiceAccount;
  scopes: string[];
}

/** Google's token endpoint error: `{error, error_description}`, status 400 unless said otherwise. */
export interface OAuthRefusal {
  status: number;
  error: string;
  description: string;
}

const invalidGrant = (description: string): OAuthRefusal => ({
  status: 400,
  error: 'invalid_grant',
  description,
});
const badSignature = invalidGrant('Invalid JWT Signature.');
const badTime = invalidGrant(
  'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
);
/** Google tolerates some clock skew between the signer and itself. */
const SKEW_SECONDS = 300;

/**
 * What Google's token endpoint checks in a JWT bearer assertion
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest), verified
 * with node:crypto on its own, so that the signer under test is not its own judge: the RS256
 * signature against the account's public key (and `kid`, when sent, against its key id), `iss`,
 * `aud`, `iat` / `exp` (at most an hour apart, not expired) and a `scope`.
 */
export function checkJwtBearerAssertion(options: {
  assertion: string;
  accounts: ReadonlyMap<string, KnownServiceAccount>;
  audiences: readonly string[];
  nowSeconds: number;
}): CheckedAssertion | OAuthRefusal {
  const parts = options.assertion.split('.');
  const [encodedHeader = '', encodedClaims = '', signature = ''] = parts;
  const header = decodeSegment(encodedHeader);
  const claims = decodeSegment(encodedClaims);
  if (parts.length !== 3 || !header || !claims) return invalidGrant('Invalid JWT: Unable to parse.');
  const account = typeof claims.iss === 'string' ? options.accounts.get(claims.iss) : undefined;
  if (!account) return invalidGrant('Invalid grant: account not found');
  if (header.alg !== 'RS256') return badSignature;
  if (header.kid !== undefined && header.kid !== account.privateKeyId) return badSignature;
  const signed = verify(
    'sha256',
    Buffer.from(`${encodedHeader}.${encodedClaims}`),
    account.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return badSignature;
  if (typeof claims.aud !== 'string' || !options.audiences.includes(claims.aud))
    return invalidGrant(`Invalid JWT: Failed audience check. The right audience is ${options.audiences[0]}`);
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') return badTime;
  if (exp - iat > 3600 || exp <= iat || exp <= options.nowSeconds || iat > options.nowSeconds + SKEW_SECONDS)
    return badTime;
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
  if (scopes.length === 0 || !scopes.every((scope) => scope.startsWith('https://www.googleapis.com/auth/')))
    return {
      status: 400,
      error: 'invalid_scope',
      description: 'Invalid OAuth scope or ID token audience provided.',
    };
  return { header, claims, account, scopes };
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
