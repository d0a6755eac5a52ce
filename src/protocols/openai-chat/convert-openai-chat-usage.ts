import type { Usage } from '../../ir/usage.js';

/** `CompletionUsage` as chat completions writes it. */
export interface OpenAIChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/**
 * Chat completions usage (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage):
 * `prompt_tokens` includes cached tokens and `completion_tokens` includes reasoning tokens.
 * DeepSeek reports cache hits as `prompt_cache_hit_tokens`
 * (https://api-docs.deepseek.com/api/create-chat-completion), read when the OpenAI field is absent.
 */
export function convertOpenAIChatUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_cache_hit_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input,
    cacheReadTokens:
      count(usage.prompt_tokens_details?.cached_tokens) ?? count(usage.prompt_cache_hit_tokens) ?? 0,
    cacheWriteTokens: count(usage.prompt_tokens_details?.cache_write_tokens) ?? 0,
    outputTokens: output,
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens) ?? 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}

/**
 * Canonical usage in chat completions form. Unknown counts are written as 0: the field is required
 * and the client has nothing better; billing reads the canonical usage, not this.
 */
export function encodeOpenAIChatUsage(usage: Usage): OpenAIChatUsage {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: {
      cached_tokens: usage.cacheReadTokens,
      ...(usage.cacheWriteTokens > 0 && { cache_write_tokens: usage.cacheWriteTokens }),
    },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
