import { SignJWT, type CryptoKey } from 'jose';
import type { ServiceAccountKey } from './service-account-key.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google refuses assertions that live longer than an hour. */
const ASSERTION_LIFETIME_SECONDS = 3600;

/**
 * The JWT a service account presents to the token endpoint
 * (https://developers.google.com/identity/protocols/oauth2/service-account#authorizingrequests):
 * RS256, `kid` = the key's `private_key_id`; claims `iss` (the account's email), `scope`, `aud`
 * (the token URL), `iat` and `exp` an hour later.
 */
export function signJwtBearerAssertion(options: {
  account: ServiceAccountKey;
  privateKey: CryptoKey;
  tokenUrl: string;
  issuedAtSeconds: number;
}): Promise<string> {
  const { account, issuedAtSeconds } = options;
  return new SignJWT({ scope: CLOUD_PLATFORM_SCOPE })
    .setProtectedHeader({
      alg: 'RS256',
      typ: 'JWT',
      ...(account.privateKeyId !== undefined && { kid: account.privateKeyId }),
    })
    .setIssuer(account.clientEmail)
    .setAudience(options.tokenUrl)
    .setIssuedAt(issuedAtSeconds)
    .setExpirationTime(issuedAtSeconds + ASSERTION_LIFETIME_SECONDS)
    .sign(options.privateKey);
}
