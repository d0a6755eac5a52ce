import type { PiiMatch } from './pii-match.js';
import { wordCoverage } from './word-coverage.js';

/**
 * A run of base64 / base64url / hex characters with at most two `=` of padding. `=` may precede it
 * (`API_KEY=...`). Starts only where a run starts and the run is one class, so each character is
 * read a bounded number of times: linear time.
 */
const TOKEN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/=_-])/g;

/** Shorter runs are rarely keys; longer ones are data (an image, a file), not credentials. */
const MIN_LENGTH = 32;
const MAX_LENGTH = 1024;
/**
 * A token is random-looking when less than this share of it reads as words (see `wordCoverage`).
 * Measured on random base64, base64url and alphanumeric keys against some 85,000 distinct long
 * tokens from package sources and documentation: random keys of 32, 40 and 64 characters fall
 * under it about 99 %, 99.5 % and 99.9 % of the time, while identifiers, paths and URLs almost never
 * do; the ordinary tokens that do are base64 data, hashes and document ids.
 */
const MAX_WORD_COVERAGE = 0.6;

/** Random keys use much of their alphabet: 32 random hex characters show 14 different ones on average. */
const MIN_DISTINCT_CHARACTERS = 10;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;
/** A git object id, or any SHA-1: 40 hex characters. */
const SHA1_LENGTH = 40;
/** Subresource integrity (`sha512-...`, https://www.w3.org/TR/SRI/) and OCI digests (`sha256:...`). */
const DIGEST_LABEL = /^(?:sha(?:1|224|256|384|512)|md5)-/i;
const DIGEST_PREFIX = /(?:sha(?:1|224|256|384|512)|md5):$/i;
/** A path segment: a lower-case name (`com`, `blob`, `aws-sdk-js-v3`). */
const PATH_WORD = /^[a-z][a-z0-9_-]*$/;

/**
 * Long high-entropy strings that are not of a known shape: generic API keys, secret access keys,
 * webhook secrets, hex-encoded keys. A run of 32 to 1,024 base64 characters is a secret when it
 * has digits, letters and at least 10 different characters, and either
 *
 * - is hex in one case, unless it is exactly 40 characters long: those are git commit and object
 *   ids, which prompts about code quote all the time, while hex keys of that length are rare (keys
 *   are usually 32 or 64 hex characters). Other hex digests (MD5, SHA-256) cannot be told from hex
 *   keys and are redacted, except after a digest label (`sha256:`, `sha512-`);
 * - or mixes lower case, capitals and digits, and reads little as words (see
 *   `MAX_WORD_COVERAGE`), so `getUserAccountSettings2FromDatabase` stays.
 *
 * UUIDs are identifiers, not secrets, and stay. A path (`com/org/repo/blob/<commit>/src`) is
 * judged segment by segment, so only a key inside it is redacted.
 */
export function findHighEntropyTokens(text: string): PiiMatch[] {
  if (!/\d/.test(text)) return [];
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const core = match[0].replace(/=+$/, '');
    if (core.length > MAX_LENGTH || DIGEST_LABEL.test(core)) continue;
    if (DIGEST_PREFIX.test(text.slice(Math.max(0, match.index - 7), match.index))) continue;
    for (const part of partsToJudge(core)) {
      if (!isRandomLooking(part.token)) continue;
      const start = match.index + part.offset;
      // The padding belongs to the token it ends.
      const end =
        part.offset + part.token.length === core.length
          ? match.index + match[0].length
          : start + part.token.length;
      matches.push({ kind: 'secret', start, end });
    }
  }
  return matches;
}

/** The token itself, or each of its segments when it reads as a path. */
function partsToJudge(token: string): { token: string; offset: number }[] {
  if (!token.includes('/')) return [{ token, offset: 0 }];
  const segments = token.split('/');
  if (segments.filter((segment) => PATH_WORD.test(segment)).length < 2) return [{ token, offset: 0 }];
  const parts: { token: string; offset: number }[] = [];
  let offset = 0;
  for (const segment of segments) {
    parts.push({ token: segment, offset });
    offset += segment.length + 1;
  }
  return parts;
}

function isRandomLooking(token: string): boolean {
  if (token.length < MIN_LENGTH || !/\d/.test(token) || !/[A-Za-z]/.test(token) || UUID.test(token))
    return false;
  if (new Set(token).size < MIN_DISTINCT_CHARACTERS) return false;
  if (HEX.test(token)) return token.length !== SHA1_LENGTH;
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token)) return false;
  return wordCoverage(token) < MAX_WORD_COVERAGE;
}
