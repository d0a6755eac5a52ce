import type { ReasoningEffort, ReasoningOptions } from '../../ir/request.js';
import { decodeGeminiThinkingConfig } from './decode-thinking-config.js';
import { jsonEqual, type JsonObject } from '../wire-json.js';
import { keptOf, type GeminiKept, type GeminiThinkingConfig } from './wire-types.js';

/** Effort as a thinking budget (admin-api section 4: `none` is `thinkingBudget: 0`). */
export const GEMINI_EFFORT_BUDGETS: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

/**
 * Canonical reasoning options as `thinkingConfig` (https://ai.google.dev/gemini-api/docs/thinking).
 * The client's own config goes out again while it still decodes to the same options. Otherwise an
 * effort wins (it may be the model modifier laid over the client's budget), then thinking turned
 * off, then an explicit budget, then thinking merely turned on (-1: the model decides). Thoughts
 * are asked back when the client asks for them, for a summary, sets an effort or turns thinking on.
 */
export function encodeGeminiThinkingConfig(
  reasoning: ReasoningOptions | undefined,
  original: JsonObject | undefined,
): GeminiThinkingConfig | GeminiKept<'thinking-config'> | undefined {
  if (reasoning === undefined) return undefined;
  if (original !== undefined && jsonEqual(decodeGeminiThinkingConfig(original), reasoning))
    return keptOf<'thinking-config'>(original);

  let budget: number | undefined;
  if (reasoning.effort !== undefined) budget = GEMINI_EFFORT_BUDGETS[reasoning.effort];
  else if (reasoning.enabled === false) budget = 0;
  else if (reasoning.budgetTokens !== undefined) budget = reasoning.budgetTokens;
  else if (reasoning.enabled === true) budget = -1;

  const wantsThoughts =
    budget !== 0 &&
    (reasoning.summary !== undefined || reasoning.enabled === true || reasoning.effort !== undefined);
  const includeThoughts = reasoning.includeThoughts ?? (wantsThoughts ? true : undefined);
  const config: GeminiThinkingConfig = {};
  if (budget !== undefined) config.thinkingBudget = budget;
  if (includeThoughts !== undefined) config.includeThoughts = includeThoughts;
  return Object.keys(config).length > 0 ? config : undefined;
}
