import { nanoToUsd } from '../billing/money.js';
import type { UsageLogRecord } from '../store/usage-logs-repository.js';

/**
 * One usage record with the fields of admin-api section 2, Usage logs, the requested model (section
 * 11.2) and what an audio request is billed by (section 14); cost in USD.
 */
export function serializeUsageLog(log: UsageLogRecord) {
  return {
    id: log.id,
    request_id: log.requestId,
    created_at: log.createdAt,
    user_id: log.userId,
    key_id: log.keyId,
    channel_id: log.channelId,
    model: log.model,
    requested_model: log.requestedModel ?? log.model,
    endpoint: log.endpoint,
    stream: log.stream,
    status_code: log.statusCode,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    cached_tokens: log.cachedTokens,
    cache_write_tokens: log.cacheWriteTokens,
    reasoning_tokens: log.reasoningTokens,
    cost: nanoToUsd(log.cost),
    latency_ms: log.latencyMs,
    first_byte_ms: log.firstByteMs,
    error: log.error,
    audio_seconds: log.audioSeconds,
    characters: log.characters,
  };
}
