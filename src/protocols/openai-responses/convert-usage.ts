import type { Usage } from '../../ir/usage.js';
import { count } from '../openai-chat/convert-usage.js';

/**
 * Responses usage (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage):
 * `input_tokens` includes cached tokens and `output_tokens` includes reasoning tokens.
 */
export function convertOpenAIResponsesUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as {
    input_tokens?: unknown;
    output_tokens?: unknown;
    input_tokens_details?: { cached_tokens?: unknown } | null;
    output_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input,
    cacheReadTokens: count(usage.input_tokens_details?.cached_tokens) ?? 0,
    cacheWriteTokens: 0,
    outputTokens: output,
    reasoningTokens: count(usage.output_tokens_details?.reasoning_tokens) ?? 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}
