import type { Usage } from '../../ir/usage.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';

/**
 * Canonical usage as `usageMetadata` (https://ai.google.dev/api/generate-content#UsageMetadata):
 * candidates exclude thoughts, the prompt includes cached tokens. A Gemini block that still says
 * the same counts goes out as received, details included. Unknown counts are left out;
 * `estimatedInputTokens` stands in for an unknown prompt count when the caller has one.
 */
export function encodeGeminiUsage(usage: Usage | undefined, estimatedInputTokens?: number): JsonObject {
  if (usage !== undefined && isJsonObject(usage.raw) && sameCounts(convertGeminiUsage(usage.raw), usage))
    return usage.raw;
  const input = usage?.inputTokens ?? estimatedInputTokens;
  const output = usage?.outputTokens;
  const reasoning = usage?.reasoningTokens ?? 0;
  const metadata: JsonObject = {};
  if (input !== undefined) metadata.promptTokenCount = input;
  if (output !== undefined) metadata.candidatesTokenCount = Math.max(0, output - reasoning);
  if (input !== undefined || output !== undefined) metadata.totalTokenCount = (input ?? 0) + (output ?? 0);
  if (usage !== undefined && usage.cacheReadTokens > 0)
    metadata.cachedContentTokenCount = usage.cacheReadTokens;
  if (reasoning > 0) metadata.thoughtsTokenCount = reasoning;
  return metadata;
}

function sameCounts(decoded: Usage | undefined, usage: Usage): boolean {
  return (
    decoded !== undefined &&
    decoded.inputTokens === usage.inputTokens &&
    decoded.outputTokens === usage.outputTokens &&
    decoded.cacheReadTokens === usage.cacheReadTokens &&
    decoded.reasoningTokens === usage.reasoningTokens
  );
}
