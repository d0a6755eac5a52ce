import type { Usage } from '../../ir/usage.js';

/**
 * Chat completions usage (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage):
 * `prompt_tokens` includes cached tokens and `completion_tokens` includes reasoning tokens.
 */
export function convertOpenAIChatUsage(raw: unknown): Usage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const usage = raw as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input,
    cacheReadTokens: count(usage.prompt_tokens_details?.cached_tokens) ?? 0,
    cacheWriteTokens: 0,
    outputTokens: output,
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens) ?? 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}

export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
