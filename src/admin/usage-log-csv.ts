import { encodeCsvRow } from './encode-csv-row.js';
import type { serializeUsageLog } from './serialize-usage-log.js';

/** One `/api/logs` entry, as `serializeUsageLog` writes it. */
export type UsageLogEntry = ReturnType<typeof serializeUsageLog>;

/**
 * Every field of an entry, in the serializer's order. As a record typed by the entry's keys, a field
 * the serializer gains fails the build here instead of going missing from the export.
 */
const COLUMNS: Record<keyof UsageLogEntry, true> = {
  id: true,
  request_id: true,
  created_at: true,
  user_id: true,
  key_id: true,
  channel_id: true,
  model: true,
  requested_model: true,
  endpoint: true,
  stream: true,
  status_code: true,
  prompt_tokens: true,
  completion_tokens: true,
  cached_tokens: true,
  cache_write_tokens: true,
  reasoning_tokens: true,
  cost: true,
  latency_ms: true,
  first_byte_ms: true,
  error: true,
  audio_seconds: true,
  characters: true,
};

export const USAGE_LOG_FIELDS = Object.keys(COLUMNS) as (keyof UsageLogEntry)[];

/** The CSV export's header row: the field names of an entry. */
export const USAGE_LOG_CSV_HEADER = encodeCsvRow(USAGE_LOG_FIELDS);

/** One entry as a CSV record, its fields in the header's order. */
export function usageLogCsvRow(entry: UsageLogEntry): string {
  return encodeCsvRow(USAGE_LOG_FIELDS.map((field) => entry[field]));
}
