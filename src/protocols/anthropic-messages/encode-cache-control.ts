import type { CacheControl } from '../../ir/content.js';

/** https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching */
export function encodeCacheControl(cacheControl: CacheControl | undefined): CacheControl | undefined {
  if (!cacheControl) return undefined;
  return cacheControl.ttl ? { type: 'ephemeral', ttl: cacheControl.ttl } : { type: 'ephemeral' };
}
