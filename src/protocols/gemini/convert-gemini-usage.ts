import type { Usage } from '../../ir/usage.js';
import { asCount, isJsonObject, parseJson } from '../wire-json.js';

/**
 * `usageMetadata` (https://ai.google.dev/api/generate-content#UsageMetadata) to canonical usage.
 * `promptTokenCount` already includes `cachedContentTokenCount`; `toolUsePromptTokenCount` (the
 * results of server tools fed back to the model) is input too. `candidatesTokenCount` excludes
 * `thoughtsTokenCount`, so output is their sum. A block with neither (a stream's early chunks carry
 * only the prompt) leaves output unknown rather than zero, unless the total says more than the input.
 */
export function convertGeminiUsage(raw: unknown): Usage | undefined {
  if (!isJsonObject(raw)) return undefined;
  const prompt = asCount(raw.promptTokenCount);
  const toolUse = asCount(raw.toolUsePromptTokenCount) ?? 0;
  const candidates = asCount(raw.candidatesTokenCount);
  const thoughts = asCount(raw.thoughtsTokenCount);
  const total = asCount(raw.totalTokenCount);

  const inputTokens = prompt === undefined ? undefined : prompt + toolUse;
  let outputTokens: number | undefined;
  if (candidates !== undefined || thoughts !== undefined) outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  else if (total !== undefined && inputTokens !== undefined && total > inputTokens)
    outputTokens = total - inputTokens;
  if (inputTokens === undefined && outputTokens === undefined) return undefined;

  return {
    inputTokens,
    cacheReadTokens: asCount(raw.cachedContentTokenCount) ?? 0,
    cacheWriteTokens: 0,
    outputTokens,
    reasoningTokens: thoughts ?? 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}

/**
 * The members of `usageMetadata` that grow from chunk to chunk of a stream as the answer does: a
 * reader that needs only the last chunk's usage can leave them unread in the others.
 */
export const GEMINI_GROWING_COUNTS = ['candidatesTokenCount', 'thoughtsTokenCount', 'totalTokenCount'];

/** The usage of a chunk kept unparsed (read by its text alone), when it has any. */
export function convertGeminiChunkUsage(data: string): Usage | undefined {
  const parsed = parseJson(data);
  return parsed.ok && isJsonObject(parsed.value) ? convertGeminiUsage(parsed.value.usageMetadata) : undefined;
}

/**
 * Google Search queries the model ran for one candidate
 * (https://ai.google.dev/api/generate-content#GroundingMetadata, `webSearchQueries`), the unit
 * Gemini 3 bills search grounding by.
 */
export function countGeminiWebSearches(candidate: unknown): number {
  if (!isJsonObject(candidate) || !isJsonObject(candidate.groundingMetadata)) return 0;
  return countWebSearchQueries(candidate.groundingMetadata.webSearchQueries);
}

/** The count of a candidate's `groundingMetadata.webSearchQueries`. */
export function countWebSearchQueries(queries: unknown): number {
  return Array.isArray(queries) ? queries.length : 0;
}
