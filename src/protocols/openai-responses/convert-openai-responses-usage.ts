import type { LossLog } from '../../ir/loss.js';
import type { Usage } from '../../ir/usage.js';
import { asCount } from '../wire-json.js';
import { openAIResponsesUsageSchema, type OpenAIResponsesWireUsage } from './wire-schemas.js';

/**
 * Responses usage (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage):
 * `input_tokens` includes cached (and cache-write) tokens and `output_tokens` includes reasoning tokens,
 * which is already the canonical meaning.
 */
export function convertOpenAIResponsesUsage(raw: unknown): Usage | undefined {
  const parsed = openAIResponsesUsageSchema.safeParse(raw);
  return parsed.success ? usageFromWire(parsed.data, raw) : undefined;
}

/** The same, from a usage block already parsed with its response; `raw` is the block as sent. */
export function usageFromWire(wire: OpenAIResponsesWireUsage | undefined, raw: unknown): Usage | undefined {
  if (!wire) return undefined;
  const input = asCount(wire.input_tokens);
  const output = asCount(wire.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input,
    cacheReadTokens: asCount(wire.input_tokens_details?.cached_tokens) ?? 0,
    cacheWriteTokens: asCount(wire.input_tokens_details?.cache_write_tokens) ?? 0,
    outputTokens: output,
    reasoningTokens: asCount(wire.output_tokens_details?.reasoning_tokens) ?? 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}

export interface OpenAIResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/**
 * Canonical usage as the Responses `usage` block. A count the upstream never reported is written
 * as `fallbackInputTokens` (the gateway's estimate) or 0, and the coercion is recorded.
 */
export function toOpenAIResponsesUsage(options: {
  usage: Usage;
  losses: LossLog;
  path: string;
  fallbackInputTokens?: number;
}): OpenAIResponsesUsage {
  const { usage, losses, path } = options;
  let input = usage.inputTokens;
  if (input === undefined) {
    input = options.fallbackInputTokens ?? 0;
    losses.coerced(`${path}.input_tokens`, `the upstream reported no input tokens; ${input} is an estimate`);
  }
  let output = usage.outputTokens;
  if (output === undefined) {
    output = 0;
    losses.coerced(`${path}.output_tokens`, 'the upstream reported no output tokens; 0 is written');
  }
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage.cacheReadTokens,
      ...(usage.cacheWriteTokens > 0 && { cache_write_tokens: usage.cacheWriteTokens }),
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: input + output,
  };
}
