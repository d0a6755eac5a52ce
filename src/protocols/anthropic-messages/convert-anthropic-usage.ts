import type { Usage } from '../../ir/usage.js';
import {
  setOwnMember,
  asCount,
  asJsonObject,
  isJsonObject,
  withoutKeys,
  type JsonObject,
} from '../wire-json.js';

/**
 * Messages usage (https://docs.anthropic.com/en/api/messages#response-usage): `input_tokens`
 * EXCLUDES the tokens read from and written to the prompt cache, which have their own counts, so
 * the canonical input is the sum of the three. Cache writes are split by TTL in `cache_creation`;
 * `output_tokens` includes thinking; `server_tool_use.web_search_requests` counts billed searches.
 */
export function convertAnthropicUsage(raw: unknown): Usage | undefined {
  const usage = asJsonObject(raw);
  if (!usage) return undefined;
  const input = asCount(usage.input_tokens);
  const output = asCount(usage.output_tokens);
  if (input === undefined && output === undefined) return undefined;

  const cacheRead = asCount(usage.cache_read_input_tokens) ?? 0;
  const byTtl = asJsonObject(usage.cache_creation);
  const write5m = asCount(byTtl?.ephemeral_5m_input_tokens);
  const write1h = asCount(byTtl?.ephemeral_1h_input_tokens);
  const cacheWrite =
    asCount(usage.cache_creation_input_tokens) ??
    (write5m !== undefined || write1h !== undefined ? (write5m ?? 0) + (write1h ?? 0) : 0);

  const converted: Usage = {
    inputTokens: input === undefined ? undefined : input + cacheRead + cacheWrite,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: output,
    reasoningTokens: asCount(asJsonObject(usage.output_tokens_details)?.thinking_tokens) ?? 0,
    webSearchCalls: asCount(asJsonObject(usage.server_tool_use)?.web_search_requests) ?? 0,
    estimated: false,
    raw,
  };
  if (write5m !== undefined) converted.cacheWrite5mTokens = write5m;
  if (write1h !== undefined) converted.cacheWrite1hTokens = write1h;
  return converted;
}

/**
 * Stream usage so far: `message_start` carries the input counts (its `output_tokens` is a
 * placeholder), `message_delta` the cumulative totals, whose null or absent fields keep the earlier
 * value (https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types).
 */
export class AnthropicStreamUsage {
  private merged: JsonObject | undefined;
  private outputReported = false;

  /** The `usage` of `message_start`. */
  start(raw: unknown): void {
    if (!isJsonObject(raw)) return;
    this.merged = { ...this.merged, ...withoutKeys(raw, ['output_tokens']) };
  }

  /** The `usage` of a `message_delta`. */
  delta(raw: unknown): void {
    if (!isJsonObject(raw)) return;
    const merged: JsonObject = { ...this.merged };
    for (const [key, value] of Object.entries(raw))
      if (value !== null && value !== undefined) setOwnMember(merged, key, value);
    this.merged = merged;
    if (asCount(raw.output_tokens) !== undefined) this.outputReported = true;
  }

  /** Canonical usage; output stays unknown until a `message_delta` has reported it. */
  current(): Usage | undefined {
    if (!this.merged) return undefined;
    return convertAnthropicUsage(
      this.outputReported ? this.merged : { ...this.merged, output_tokens: undefined },
    );
  }
}
