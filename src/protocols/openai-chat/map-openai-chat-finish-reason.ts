import type { FinishReason } from '../../ir/reply.js';

/** `finish_reason` values of chat completions (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices). */
export type OpenAIChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/**
 * Wire value -> canonical. Besides OpenAI's five values, DeepSeek ends a request it could not serve
 * with `insufficient_system_resource` (https://api-docs.deepseek.com/api/create-chat-completion).
 * Anything else is `other`, with the value kept in `raw`. A model that refuses answers with a
 * `refusal` message and finishes `stop` (https://platform.openai.com/docs/guides/structured-outputs#refusals):
 * with `refused`, that `stop` is the content filter's.
 */
export function mapOpenAIChatFinishReason(raw: unknown, options: { refused?: boolean } = {}): FinishReason {
  const value = typeof raw === 'string' ? raw : undefined;
  switch (value) {
    case 'stop':
      return { unified: options.refused ? 'content-filter' : 'stop', raw: value };
    case 'length':
      return { unified: 'length', raw: value };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw: value };
    case 'content_filter':
      return { unified: 'content-filter', raw: value };
    case 'insufficient_system_resource':
      return { unified: 'error', raw: value };
    default:
      return { unified: 'other', raw: value };
  }
}

/**
 * Canonical -> wire value. `exact` is false where chat completions has no value of that meaning
 * (`error`, `other`): those go out as `stop` and the caller records the loss. A `stop` with tool
 * calls in the reply goes out as `tool_calls`, which is what chat clients look for before running tools.
 */
export function toOpenAIChatFinishReason(
  reason: FinishReason,
  options: { hasToolCalls: boolean },
): { value: OpenAIChatFinishReason; exact: boolean } {
  switch (reason.unified) {
    case 'stop':
      return { value: options.hasToolCalls ? 'tool_calls' : 'stop', exact: true };
    case 'length':
      return { value: 'length', exact: true };
    case 'tool-calls':
      return { value: reason.raw === 'function_call' ? 'function_call' : 'tool_calls', exact: true };
    case 'content-filter':
      return { value: 'content_filter', exact: true };
    case 'error':
    case 'other':
      return { value: options.hasToolCalls ? 'tool_calls' : 'stop', exact: false };
    default: {
      const unreachable: never = reason.unified;
      return unreachable;
    }
  }
}
