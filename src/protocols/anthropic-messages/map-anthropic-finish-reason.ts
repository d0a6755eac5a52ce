import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';

/** https://docs.anthropic.com/en/api/messages#response-stop-reason */
export type AnthropicStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

const STOP_REASONS: readonly string[] = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] satisfies readonly AnthropicStopReason[];

function isAnthropicStopReason(value: string | undefined): value is AnthropicStopReason {
  return value !== undefined && STOP_REASONS.includes(value);
}

/** Anthropic `stop_reason` -> canonical finish reason; unknown values become `other`. */
export function mapAnthropicFinishReason(raw: unknown): FinishReason {
  const value = typeof raw === 'string' ? raw : undefined;
  if (!isAnthropicStopReason(value)) return { unified: 'other', raw: value };
  switch (value) {
    case 'end_turn':
    case 'stop_sequence':
      return { unified: 'stop', raw: value };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw: value };
    case 'tool_use':
      return { unified: 'tool-calls', raw: value };
    case 'refusal':
      return { unified: 'content-filter', raw: value };
    case 'pause_turn':
      return { unified: 'other', raw: value };
    default: {
      const unreachable: never = value;
      return { unified: 'other', raw: unreachable };
    }
  }
}

/**
 * Canonical finish reason -> Anthropic `stop_reason`. A raw Anthropic value that agrees with the
 * unified one is kept (round trip); `error` and `other` from other protocols have no Anthropic
 * value and become `end_turn`, recorded as a loss.
 */
export function toAnthropicStopReason(finishReason: FinishReason, losses: LossLog): AnthropicStopReason {
  const { unified, raw } = finishReason;
  if (isAnthropicStopReason(raw) && mapAnthropicFinishReason(raw).unified === unified) return raw;
  switch (unified) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'refusal';
    case 'error':
    case 'other':
      losses.coerced(
        'finish_reason',
        `finish reason ${raw ?? unified} has no Anthropic stop_reason: end_turn`,
      );
      return 'end_turn';
    default: {
      const unreachable: never = unified;
      return unreachable;
    }
  }
}
