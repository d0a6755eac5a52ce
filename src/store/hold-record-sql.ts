import type { DialectName } from './database.js';
import type { NewUsageLog } from './usage-logs-repository.js';

/**
 * The SQL both money ledgers share about the usage record a hold carries: how the settlement
 * writes it into the hold, and how a hold becomes a `usage_logs` row (settled, or interrupted).
 */

const usageLogColumns =
  'request_id, created_at, user_id, key_id, channel_id, model, endpoint, stream, status_code, prompt_tokens, ' +
  'completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost, latency_ms, first_byte_ms, error';

/** `set ...` of the settlement's update, with its parameters in the order of `holdRecordValues`. */
export function recordIntoHold(dialect: DialectName): string {
  const cast = (type: string) => (dialect === 'postgres' ? `?::${type}` : '?');
  return `status_code = ${cast('integer')}, channel_id = ${cast('bigint')}, prompt_tokens = ${cast('bigint')},
    completion_tokens = ${cast('bigint')}, cached_tokens = ${cast('bigint')},
    cache_write_tokens = ${cast('bigint')}, reasoning_tokens = ${cast('bigint')}, cost = ${cast('bigint')},
    latency_ms = ${cast('integer')}, first_byte_ms = ${cast('integer')}, error = ?, settled_at = ${cast('bigint')}`;
}

export function holdRecordValues(record: NewUsageLog, cost: number): unknown[] {
  return [
    record.statusCode,
    record.channelId,
    record.promptTokens,
    record.completionTokens,
    record.cachedTokens,
    record.cacheWriteTokens,
    record.reasoningTokens,
    cost,
    record.latencyMs,
    record.firstByteMs,
    record.error,
    record.createdAt,
  ];
}

/** Usage records of settled holds read from `source` (a table or a CTE of hold rows). */
export function insertSettledRecords(source: string): string {
  return `insert into usage_logs (${usageLogColumns})
    select id, settled_at, user_id, key_id, channel_id, model, endpoint, stream, status_code, prompt_tokens,
      completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost, latency_ms, first_byte_ms, error
    from ${source}`;
}

/** Usage records of returned holds read from `source`: status 0, cost 0, the error as the first parameter. */
export function insertInterruptedRecords(source: string): string {
  return `insert into usage_logs (${usageLogColumns})
    select id, created_at, user_id, key_id, null, model, endpoint, stream, 0, 0, 0, 0, 0, 0, 0, 0, null, ?
    from ${source}`;
}
