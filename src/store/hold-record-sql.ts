/**
 * The SQL both money ledgers share about the usage record a hold carries: how a hold becomes a
 * `usage_logs` row (settled, or interrupted).
 */

const usageLogColumns =
  'request_id, created_at, user_id, key_id, channel_id, model, requested_model, endpoint, stream, status_code, ' +
  'prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost, latency_ms, ' +
  'first_byte_ms, error, audio_seconds, characters';

/** Usage records of settled holds read from `source` (a table or a CTE of hold rows). */
export function insertSettledRecords(source: string): string {
  return `insert into usage_logs (${usageLogColumns})
    select id, settled_at, user_id, key_id, channel_id, model, requested_model, endpoint, stream, status_code, prompt_tokens,
      completion_tokens, cached_tokens, cache_write_tokens, reasoning_tokens, cost, latency_ms, first_byte_ms, error,
      audio_seconds, characters
    from ${source}`;
}

/**
 * Usage records of returned holds read from `source`: status 0, cost 0, no audio figures, the error
 * as the first parameter.
 */
export function insertInterruptedRecords(source: string): string {
  return `insert into usage_logs (${usageLogColumns})
    select id, created_at, user_id, key_id, null, model, requested_model, endpoint, stream, 0, 0, 0, 0, 0, 0, 0, 0, null, ?, null, null
    from ${source}`;
}
