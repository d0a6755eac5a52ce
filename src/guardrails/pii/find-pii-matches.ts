import { chooseMatches } from './choose-matches.js';
import { findBearerTokens } from './find-bearer-tokens.js';
import { findCardNumbers } from './find-card-numbers.js';
import { findEmailAddresses } from './find-email-addresses.js';
import { findHighEntropyTokens } from './find-high-entropy-tokens.js';
import { findIbans } from './find-ibans.js';
import { findJwts } from './find-jwts.js';
import { findPhoneNumbers } from './find-phone-numbers.js';
import { findPrefixedSecrets, SECRET_PREFIXES } from './find-prefixed-secrets.js';
import { mightContainPii } from './might-contain-pii.js';
import type { PiiDetector, PiiMatch } from './pii-match.js';

/** From the most specific shape to the most general: the order breaks ties between equal spans. */
export const PII_DETECTORS: readonly PiiDetector[] = [
  findPrefixedSecrets,
  findJwts,
  findBearerTokens,
  findEmailAddresses,
  findIbans,
  findCardNumbers,
  findPhoneNumbers,
  findHighEntropyTokens,
];

/** The credentials among them: what is never stored, whatever `redact_pii` says. */
const CREDENTIAL_DETECTORS: readonly PiiDetector[] = [findPrefixedSecrets, findJwts, findBearerTokens];

/**
 * What every credential shape starts with: a vendor's prefix, a JWT's `eyJ`, the `Bearer` scheme.
 * One scan of a text without any of them (most bodies) settles that it holds no credential.
 */
const CREDENTIAL_CLUE = new RegExp(`${SECRET_PREFIXES.join('|')}|eyJ|[Bb]earer|BEARER`);

/** The spans of `text` to redact, in order, without overlaps. */
export function findPiiMatches(text: string): PiiMatch[] {
  if (!mightContainPii(text)) return [];
  return chooseMatches(PII_DETECTORS.flatMap((detect) => detect(text)));
}

/** The spans of `text` that are credentials (API keys of known shapes, JWTs, bearer tokens). */
export function findCredentialMatches(text: string): PiiMatch[] {
  if (!CREDENTIAL_CLUE.test(text)) return [];
  return chooseMatches(CREDENTIAL_DETECTORS.flatMap((detect) => detect(text)));
}
