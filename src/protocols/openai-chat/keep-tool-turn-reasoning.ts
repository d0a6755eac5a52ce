import type { LossLog } from '../../ir/loss.js';
import type { OpenAIChatAssistantMessage, OpenAIChatMessage } from './wire-types.js';

/** An assistant message the encoder gave `reasoning_content`, with the paths of the parts it holds. */
export interface ReasonedAssistant {
  message: OpenAIChatAssistantMessage;
  paths: readonly string[];
}

/**
 * DeepSeek's rule for `reasoning_content` in a conversation
 * (https://api-docs.deepseek.com/guides/thinking_mode#tool-calls), which the other vendors of that
 * member follow or tolerate (Fireworks: https://docs.fireworks.ai/guides/reasoning#interleaved-thinking).
 * A user turn runs from one `user` message to the next. The reasoning of a turn in which the model
 * called tools goes back, in the ongoing tool loop and in every later request: without it the
 * thinking models answer 400. The reasoning of a turn without tool calls does not: the thinking
 * models ignore it, and the first deepseek-reasoner refused it with a 400
 * (https://api-docs.deepseek.com/guides/reasoning_model). What is left out is recorded at the paths
 * of its parts.
 */
export function keepToolTurnReasoning(
  messages: readonly OpenAIChatMessage[],
  context: { reasoned: readonly ReasonedAssistant[]; losses: LossLog },
): OpenAIChatMessage[] {
  const turnOf = new Map<OpenAIChatMessage, number>();
  const callingTurns = new Set<number>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user') turn++;
    turnOf.set(message, turn);
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) callingTurns.add(turn);
  }
  const replaced = new Map<OpenAIChatMessage, OpenAIChatMessage>();
  for (const { message, paths } of context.reasoned) {
    if (callingTurns.has(turnOf.get(message) ?? -1)) continue;
    for (const path of paths)
      context.losses.dropped(path, 'reasoning_content goes back only for turns with tool calls');
    const { reasoning_content: _left, ...rest } = message;
    replaced.set(message, rest);
  }
  return messages.map((message) => replaced.get(message) ?? message);
}
