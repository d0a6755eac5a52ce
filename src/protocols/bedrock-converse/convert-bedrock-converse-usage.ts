import type { Usage } from '../../ir/usage.js';
import { asArray, asCount, asJsonObject } from '../wire-json.js';
import type { ConverseWireUsage } from './wire-types.js';

/**
 * `TokenUsage` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html)
 * -> canonical usage. `inputTokens` EXCLUDES the tokens read from and written to the prompt cache,
 * which have their own counts (as Anthropic's `input_tokens` does; `totalTokens` is their sum with
 * the output), so the canonical input is the sum of the three. `cacheDetails` splits cache writes
 * by TTL. Converse does not count reasoning apart: it is part of `outputTokens`.
 */
export function convertConverseUsage(raw: unknown): Usage | undefined {
  const usage = asJsonObject(raw);
  if (!usage) return undefined;
  const input = asCount(usage.inputTokens);
  const output = asCount(usage.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  const cacheRead = asCount(usage.cacheReadInputTokens) ?? 0;
  const cacheWrite = asCount(usage.cacheWriteInputTokens) ?? 0;
  const converted: Usage = {
    inputTokens: input === undefined ? undefined : input + cacheRead + cacheWrite,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: output,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
  for (const detail of asArray(usage.cacheDetails)) {
    const entry = asJsonObject(detail);
    const tokens = asCount(entry?.inputTokens);
    if (tokens === undefined) continue;
    if (entry?.ttl === '5m') converted.cacheWrite5mTokens = (converted.cacheWrite5mTokens ?? 0) + tokens;
    else if (entry?.ttl === '1h') converted.cacheWrite1hTokens = (converted.cacheWrite1hTokens ?? 0) + tokens;
  }
  return converted;
}

/**
 * Canonical usage in the Converse form, where `inputTokens` excludes cache reads and writes.
 * Unknown counts take the given fallbacks: the relay's input estimate, and no output.
 */
export function encodeConverseUsage(
  usage: Usage | undefined,
  fallback: { inputTokens: number },
): ConverseWireUsage {
  const cacheRead = usage?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  const input = Math.max(0, (usage?.inputTokens ?? fallback.inputTokens) - cacheRead - cacheWrite);
  const output = usage?.outputTokens ?? 0;
  const wire: ConverseWireUsage = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + cacheRead + cacheWrite + output,
    cacheReadInputTokens: cacheRead,
    cacheWriteInputTokens: cacheWrite,
  };
  // Sorted by TTL, 1h before 5m, as Bedrock sends them.
  const details: NonNullable<ConverseWireUsage['cacheDetails']> = [];
  if (usage?.cacheWrite1hTokens !== undefined)
    details.push({ ttl: '1h', inputTokens: usage.cacheWrite1hTokens });
  if (usage?.cacheWrite5mTokens !== undefined)
    details.push({ ttl: '5m', inputTokens: usage.cacheWrite5mTokens });
  if (details.length > 0) wire.cacheDetails = details;
  return wire;
}
