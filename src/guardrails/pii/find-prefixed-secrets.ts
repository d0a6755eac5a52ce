import type { PiiMatch } from './pii-match.js';

interface SecretShape {
  pattern: RegExp;
  /** A further test of the matched token, when the shape alone would take ordinary words. */
  accept?: (token: string) => boolean;
}

/** A token starts where no token character precedes it, so a long token is tried once: linear time. */
const START = String.raw`(?<![A-Za-z0-9_-])`;
/** and ends where no token character follows: a longer token of the same prefix is something else. */
const END = String.raw`(?![A-Za-z0-9_-])`;

const shape = (body: string, accept?: (token: string) => boolean): SecretShape => ({
  pattern: new RegExp(START + body + END, 'g'),
  ...(accept ? { accept } : {}),
});

/**
 * API keys and tokens whose vendors give them a fixed prefix. Each pattern is a literal prefix and
 * one repeated class, so it has one parse.
 */
const SHAPES: readonly SecretShape[] = [
  // OpenAI (`sk-`, `sk-proj-`, `sk-svcacct-`, `sk-admin-`) and Anthropic (`sk-ant-api03-`) keys:
  // https://platform.openai.com/docs/api-reference/authentication,
  // https://docs.anthropic.com/en/api/overview#authentication. A digit or a capital is required so
  // that a hyphenated phrase starting with `sk-` stays.
  shape(String.raw`sk-[A-Za-z0-9_-]{20,}`, (token) => /[0-9A-Z]/.test(token.slice(3))),
  // Stripe secret and restricted keys: https://docs.stripe.com/keys
  shape(String.raw`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`),
  // AWS access key ids, long-term and temporary:
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids
  shape(String.raw`(?:AKIA|ASIA)[0-9A-Z]{16}`),
  // Google API keys and OAuth access tokens: https://cloud.google.com/docs/authentication/api-keys
  shape(String.raw`AIza[0-9A-Za-z_-]{35}`),
  shape(String.raw`ya29\.[0-9A-Za-z_-]{20,}`),
  // GitHub tokens: https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/
  shape(String.raw`gh[pousr]_[A-Za-z0-9]{36,}`),
  shape(String.raw`github_pat_[A-Za-z0-9_]{22,}`),
  // Slack tokens: https://api.slack.com/concepts/token-types
  shape(String.raw`xox[abeoprs]-[A-Za-z0-9-]{15,}`),
  // Hugging Face, Groq, xAI and Perplexity keys, common in requests to a model gateway.
  shape(String.raw`hf_[A-Za-z0-9]{30,}`),
  shape(String.raw`gsk_[A-Za-z0-9]{40,}`),
  shape(String.raw`xai-[A-Za-z0-9]{40,}`),
  shape(String.raw`pplx-[A-Za-z0-9]{40,}`),
];

/** The literal start of each shape above, as a regular expression (see `findCredentialMatches`). */
export const SECRET_PREFIXES: readonly string[] = [
  'sk-',
  '[sr]k_',
  'AKIA',
  'ASIA',
  'AIza',
  String.raw`ya29\.`,
  'gh[pousr]_',
  'github_pat_',
  'xox',
  'hf_',
  'gsk_',
  'xai-',
  'pplx-',
];

export function findPrefixedSecrets(text: string): PiiMatch[] {
  const matches: PiiMatch[] = [];
  for (const { pattern, accept } of SHAPES)
    for (const match of text.matchAll(pattern))
      if (!accept || accept(match[0]))
        matches.push({ kind: 'secret', start: match.index, end: match.index + match[0].length });
  return matches;
}
