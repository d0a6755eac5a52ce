import type { LossLog } from '../../ir/loss.js';
import type { ReasoningEffort, ReasoningOptions } from '../../ir/request.js';
import type { JsonObject } from '../wire-json.js';
import type { AnthropicContentBlock, AnthropicMessageParam } from './wire-types.js';

/** Thinking budget for each effort (admin-api section 4). */
export const EFFORT_BUDGET_TOKENS: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

/** https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking: `budget_tokens` >= 1024 and < `max_tokens`. */
const MIN_BUDGET_TOKENS = 1024;

export interface EncodedReasoning {
  thinking?: JsonObject;
  /** `output_config.effort` to send. */
  effort?: string;
}

/**
 * Canonical reasoning options -> `thinking` (and `output_config.effort`).
 *
 * An effort that did not come from this request's own `output_config` (another protocol, or the
 * model modifier) reaches Anthropic in its own form: when the client already speaks Anthropic's
 * effort setting (adaptive thinking or `output_config.effort`), as that setting; otherwise as a
 * thinking budget. `none` disables thinking. Budgets are kept within [1024, max_tokens).
 */
export function encodeReasoning(options: {
  reasoning: ReasoningOptions | undefined;
  maxTokens: number;
  storedThinking: JsonObject | undefined;
  storedEffort: unknown;
  losses: LossLog;
}): EncodedReasoning {
  const { reasoning, storedThinking, storedEffort, losses } = options;
  const effort = reasoning?.effort;
  if (effort !== undefined && effort !== storedEffort) {
    if (effort === 'none') return { thinking: { type: 'disabled' } };
    if (storedThinking?.type === 'adaptive' || storedEffort !== undefined) {
      if (effort === 'minimal') losses.coerced('reasoning.effort', 'Anthropic has no minimal effort: low');
      return { ...baseThinking(options), effort: effort === 'minimal' ? 'low' : effort };
    }
    const thinking = enabledThinking(EFFORT_BUDGET_TOKENS[effort], options);
    return thinking ? { thinking } : {};
  }
  return {
    ...baseThinking(options),
    ...(storedEffort !== undefined ? { effort: String(storedEffort) } : {}),
  };
}

/** Thinking from the budget and the on/off switch, restoring what the client's own object said. */
function baseThinking(options: {
  reasoning: ReasoningOptions | undefined;
  maxTokens: number;
  storedThinking: JsonObject | undefined;
  losses: LossLog;
}): { thinking?: JsonObject } {
  const { reasoning, storedThinking } = options;
  let thinking: JsonObject | undefined;
  if (reasoning?.budgetTokens !== undefined) thinking = enabledThinking(reasoning.budgetTokens, options);
  else if (reasoning?.enabled === false)
    thinking = storedThinking?.type === 'disabled' ? storedThinking : { type: 'disabled' };
  else if (reasoning?.enabled === true)
    thinking =
      storedThinking && storedThinking.type !== 'enabled' && storedThinking.type !== 'disabled'
        ? storedThinking
        : enabledThinking(EFFORT_BUDGET_TOKENS.medium, options);
  return thinking ? { thinking } : {};
}

function enabledThinking(
  budget: number,
  options: { maxTokens: number; storedThinking: JsonObject | undefined; losses: LossLog },
): JsonObject | undefined {
  const { maxTokens, losses } = options;
  if (maxTokens <= MIN_BUDGET_TOKENS) {
    losses.dropped(
      'reasoning',
      `max_tokens ${maxTokens} leaves no room for the minimum thinking budget 1024`,
    );
    return undefined;
  }
  let budgetTokens = Math.round(budget);
  if (budgetTokens < MIN_BUDGET_TOKENS) {
    losses.coerced('reasoning.budgetTokens', `thinking budget ${budgetTokens} raised to the minimum 1024`);
    budgetTokens = MIN_BUDGET_TOKENS;
  }
  if (budgetTokens >= maxTokens) {
    losses.coerced(
      'reasoning.budgetTokens',
      `thinking budget ${budgetTokens} lowered below max_tokens ${maxTokens}`,
    );
    budgetTokens = maxTokens - 1;
  }
  const stored = options.storedThinking?.type === 'enabled' ? options.storedThinking : {};
  return { ...stored, type: 'enabled', budget_tokens: budgetTokens };
}

/** Whether Anthropic will think, which rules out some sampling settings. */
export function isThinkingOn(thinking: JsonObject | undefined): boolean {
  return thinking !== undefined && thinking.type !== 'disabled';
}

/**
 * Whether thinking can be on for these messages. A request that continues a tool loop (its final
 * user turn holds tool results) must send the assistant turn that called the tools back with its
 * thinking block first (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks);
 * a conversation from another vendor has no Anthropic-signed thinking to send, and Anthropic then
 * refuses thinking.
 */
export function canThinkWith(messages: AnthropicMessageParam[]): boolean {
  const caller = messages.at(-2);
  const last = messages.at(-1);
  if (caller?.role !== 'assistant' || last?.role !== 'user') return true;
  if (!contentBlocks(last).some((block) => block.type === 'tool_result')) return true;
  const first = contentBlocks(caller)[0];
  return first?.type === 'thinking' || first?.type === 'redacted_thinking';
}

function contentBlocks(message: AnthropicMessageParam): AnthropicContentBlock[] {
  return typeof message.content === 'string' ? [] : message.content;
}
