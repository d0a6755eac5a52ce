import type { Insertable } from 'kysely';
import type { UsageLogsTable } from './schema.js';
import type { NewUsageLog } from './usage-logs-repository.js';

/** A usage record as table columns, in the order `usageLogColumnNames` lists them. */
export function toUsageLogColumns(log: NewUsageLog): Insertable<UsageLogsTable> {
  return {
    request_id: log.requestId,
    created_at: log.createdAt,
    user_id: log.userId,
    key_id: log.keyId,
    channel_id: log.channelId,
    model: log.model,
    endpoint: log.endpoint,
    stream: Number(log.stream),
    status_code: log.statusCode,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    cached_tokens: log.cachedTokens,
    cache_write_tokens: log.cacheWriteTokens,
    reasoning_tokens: log.reasoningTokens,
    cost: log.cost,
    latency_ms: log.latencyMs,
    first_byte_ms: log.firstByteMs,
    error: log.error,
  };
}

export const usageLogColumnNames = [
  'request_id',
  'created_at',
  'user_id',
  'key_id',
  'channel_id',
  'model',
  'endpoint',
  'stream',
  'status_code',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'cost',
  'latency_ms',
  'first_byte_ms',
  'error',
] as const satisfies readonly (keyof UsageLogsTable)[];
