import type { ReasoningEffort, ReasoningOptions } from '../../ir/request.js';
import { asBoolean, asFiniteNumber, isJsonObject } from '../wire-json.js';

const LEVEL_EFFORT: Record<string, ReasoningEffort> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/**
 * `generationConfig.thinkingConfig` (https://ai.google.dev/gemini-api/docs/thinking) as canonical
 * reasoning options: `thinkingBudget` 0 turns thinking off (effort `none`), -1 lets the model
 * decide, a positive budget is the budget; `thinkingLevel` (Gemini 3) is an effort.
 */
export function decodeGeminiThinkingConfig(value: unknown): ReasoningOptions | undefined {
  if (!isJsonObject(value)) return undefined;
  const reasoning: ReasoningOptions = {};
  const budget = asFiniteNumber(value.thinkingBudget);
  if (budget === 0) {
    reasoning.enabled = false;
    reasoning.effort = 'none';
  } else if (budget !== undefined && budget < 0) reasoning.enabled = true;
  else if (budget !== undefined) {
    reasoning.enabled = true;
    reasoning.budgetTokens = Math.round(budget);
  }
  const level = typeof value.thinkingLevel === 'string' ? LEVEL_EFFORT[value.thinkingLevel] : undefined;
  if (level !== undefined) reasoning.effort = level;
  const include = asBoolean(value.includeThoughts);
  if (include !== undefined) reasoning.includeThoughts = include;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}
