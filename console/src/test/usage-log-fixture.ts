import type { UsageLog, UsageLogDetail } from '../api/types';

/** A successful chat record of user 1's key 2 on channel 3; `fields` override any of it. */
export function usageLog(id: number, fields: Partial<UsageLog> = {}): UsageLog {
  return {
    id,
    request_id: `req-${id}`,
    created_at: 1_700_000_000,
    user_id: 1,
    key_id: 2,
    channel_id: 3,
    model: 'gpt-4o',
    endpoint: 'chat',
    stream: false,
    status_code: 200,
    prompt_tokens: 10,
    completion_tokens: 5,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost: 0.001,
    latency_ms: 300,
    first_byte_ms: null,
    error: null,
    audio_seconds: null,
    characters: null,
    ...fields,
  };
}

/** The same record as `GET /api/logs/{id}` answers it, without bodies unless `fields` give them. */
export function usageLogDetail(id: number, fields: Partial<UsageLogDetail> = {}): UsageLogDetail {
  return { ...usageLog(id), request_body: null, response_body: null, body_truncated: false, ...fields };
}
