import type { LossLog } from '../../ir/loss.js';
import type { FinishReason } from '../../ir/reply.js';

/** `StopReason` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseResponse.html#bedrock-runtime_Converse-response-stopReason) */
export const converseStopReasons = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'guardrail_intervened',
  'content_filtered',
  'malformed_model_output',
  'malformed_tool_use',
  'model_context_window_exceeded',
] as const;

export type ConverseStopReason = (typeof converseStopReasons)[number];

export function isConverseStopReason(value: unknown): value is ConverseStopReason {
  return (converseStopReasons as readonly unknown[]).includes(value);
}

/** Converse `stopReason` -> canonical finish reason; unknown values become `other`. */
export function mapConverseStopReason(raw: unknown): FinishReason {
  const value = typeof raw === 'string' ? raw : undefined;
  return { unified: unifiedOf(value), raw: value };
}

function unifiedOf(value: string | undefined): FinishReason['unified'] {
  if (!isConverseStopReason(value)) return 'other';
  switch (value) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return 'error';
    default: {
      const unreachable: never = value;
      return unreachable;
    }
  }
}

/**
 * Canonical finish reason -> Converse `stopReason`. A raw Converse value that still means the
 * same is kept (round trip); otherwise the closest value. `other` has none and becomes
 * `end_turn`, recorded as a loss.
 */
export function toConverseStopReason(finishReason: FinishReason, losses: LossLog): ConverseStopReason {
  const { unified, raw } = finishReason;
  if (isConverseStopReason(raw) && unifiedOf(raw) === unified) return raw;
  switch (unified) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'content_filtered';
    case 'error':
      return 'malformed_model_output';
    case 'other':
      losses.coerced('finish_reason', `finish reason ${raw ?? unified} has no Converse stopReason: end_turn`);
      return 'end_turn';
    default: {
      const unreachable: never = unified;
      return unreachable;
    }
  }
}
