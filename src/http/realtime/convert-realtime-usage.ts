import type { Usage } from '../../ir/usage.js';
import { isJsonObject as isRecord } from '../../protocols/wire-json.js';

/**
 * The `usage` of a Realtime `response.done` in the canonical form
 * (https://platform.openai.com/docs/api-reference/realtime-server-events/response/done):
 * `input_tokens` counts every input token, `cached_tokens` of them read from the cache; the audio
 * tokens kept are those of the uncached input (cached audio is billed as cached input, at
 * `cached_input`) and of the output. Undefined when the event carries no usable usage.
 */
export function convertRealtimeUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const inputTokens = count(usage.input_tokens);
  const outputTokens = count(usage.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const input = isRecord(usage.input_token_details) ? usage.input_token_details : {};
  const output = isRecord(usage.output_token_details) ? usage.output_token_details : {};
  const cached = isRecord(input.cached_tokens_details) ? input.cached_tokens_details : {};
  const cachedTokens = Math.min(inputTokens, count(input.cached_tokens) ?? 0);
  const inputAudio = count(input.audio_tokens) ?? 0;
  // Without the split of the cached tokens, none of them is taken for audio: audio is the dearer.
  const cachedAudio = Math.min(inputAudio, count(cached.audio_tokens) ?? 0);
  return {
    inputTokens,
    cacheReadTokens: cachedTokens,
    cacheWriteTokens: 0,
    outputTokens,
    reasoningTokens: 0,
    webSearchCalls: 0,
    inputAudioTokens: inputAudio - cachedAudio,
    outputAudioTokens: Math.min(outputTokens, count(output.audio_tokens) ?? 0),
    estimated: false,
    raw: usage,
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
