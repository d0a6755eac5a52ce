import type { Usage } from '../../ir/usage.js';

/** `usage` as a Messages reply or `message_delta` states it. */
export interface AnthropicWireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  server_tool_use?: { web_search_requests: number };
  output_tokens_details?: { thinking_tokens: number };
}

/**
 * Canonical usage in the Messages form, where `input_tokens` excludes cache reads and writes
 * (https://docs.anthropic.com/en/api/messages#response-usage). Unknown counts take the given
 * fallbacks: the relay's input estimate, and no output.
 */
export function encodeAnthropicUsage(
  usage: Usage | undefined,
  fallback: { inputTokens: number },
): AnthropicWireUsage {
  const cacheRead = usage?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  const input = usage?.inputTokens ?? fallback.inputTokens;
  const wire: AnthropicWireUsage = {
    input_tokens: Math.max(0, input - cacheRead - cacheWrite),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
  if (usage?.cacheWrite5mTokens !== undefined || usage?.cacheWrite1hTokens !== undefined) {
    wire.cache_creation = {
      ephemeral_5m_input_tokens: usage.cacheWrite5mTokens ?? 0,
      ephemeral_1h_input_tokens: usage.cacheWrite1hTokens ?? 0,
    };
  }
  if (usage && usage.webSearchCalls > 0) wire.server_tool_use = { web_search_requests: usage.webSearchCalls };
  if (usage && usage.reasoningTokens > 0)
    wire.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  return wire;
}
