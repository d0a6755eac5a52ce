import { findCredentialMatches, findPiiMatches } from './pii/find-pii-matches.js';
import { replaceMatches } from './redact-pii.js';

/**
 * A body as it is stored (admin-api section 12): credentials (API keys of known shapes, JWTs,
 * bearer tokens) always replaced by `[REDACTED:secret]`, and with `pii` (`redact_pii` other than
 * `off`) every kind of personal data too.
 *
 * A stored body is JSON or SSE text, where a string's line break is the two characters `\n`: the
 * detectors read a copy with each escape blanked out (same length, so spans carry over), or a
 * token after `\n` would not be seen to start at a word boundary.
 */
export function redactStoredBody(text: string, options: { pii: boolean }): string {
  const view = text.includes('\\') ? text.replace(JSON_ESCAPE, blank) : text;
  return replaceMatches(text, options.pii ? findPiiMatches(view) : findCredentialMatches(view)).text;
}

const JSON_ESCAPE = /\\(?:u[0-9A-Fa-f]{4}|.)/g;

function blank(escape: string): string {
  return ' '.repeat(escape.length);
}
