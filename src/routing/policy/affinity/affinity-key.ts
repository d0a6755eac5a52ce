import { createHash } from 'node:crypto';
import type { ClientProtocolName } from '../../../protocols/protocol-codec.js';

type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * The request's affinity key (admin-api 11.4), first found: body `prompt_cache_key` (responses,
 * chat completions), header `x-session-affinity`, header `session_id` or `x-session-id`, body
 * `metadata.user_id` (messages). A source that is empty or not a string counts as absent.
 * Undefined when none: no stickiness.
 *
 * Runs on every conversational request, so a request without a key costs a few property reads and
 * allocates nothing. Header names are the lowercase ones node gives.
 */
export function affinityKeyOf(
  protocol: ClientProtocolName,
  body: Record<string, unknown>,
  headers: RequestHeaders,
): string | undefined {
  if (protocol === 'openai-chat' || protocol === 'openai-responses') {
    const promptCacheKey = body.prompt_cache_key;
    if (isNonEmptyString(promptCacheKey)) return promptCacheKey;
  }
  const fromHeaders =
    headerValue(headers['x-session-affinity']) ??
    headerValue(headers['session_id']) ??
    headerValue(headers['x-session-id']);
  if (fromHeaders !== undefined) return fromHeaders;
  if (protocol === 'anthropic-messages') {
    const metadata = body.metadata;
    if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
      const userId = (metadata as Record<string, unknown>).user_id;
      if (isNonEmptyString(userId)) return userId;
    }
  }
  return undefined;
}

/**
 * The id under which a key's affinity is kept, locally, between workers and in Redis: 128 bits of
 * SHA-256 over the API key id and the affinity key. Affinity keys are often user ids or session
 * ids, so they never leave the request in clear; the key id keeps two keys that happen to send the
 * same affinity key apart.
 */
export function stickyId(keyId: number, affinityKey: string): string {
  return createHash('sha256').update(`${keyId}:${affinityKey}`).digest('hex').slice(0, 32);
}

/** A repeated header arrives as an array: its first non-empty value counts. */
function headerValue(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  for (const item of value) if (isNonEmptyString(item)) return item;
  return undefined;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
