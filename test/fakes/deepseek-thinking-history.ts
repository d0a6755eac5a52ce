import { asRecord, type RequestProblem } from './fake-upstream.js';

/**
 * What DeepSeek refuses in the history of a thinking-mode conversation
 * (https://api-docs.deepseek.com/guides/thinking_mode#tool-calls). A user turn runs from one `user`
 * message to the next.
 *
 * - An assistant message with tool calls must bring its `reasoning_content` back, in the ongoing
 *   tool loop and in every later request; without it the API answers 400 with this wording.
 * - `reasoning_content` on an assistant message of a turn without tool calls: the thinking models
 *   ignore it, but deepseek-reasoner answered 400
 *   (https://api-docs.deepseek.com/guides/reasoning_model: "if the reasoning_content field is
 *   included in the sequence of input messages, the API will return a 400 error"). The fake keeps
 *   that stricter behaviour, so a gateway that sends it there is caught; the wording is ours.
 */
export function checkDeepSeekThinkingHistory(body: unknown): RequestProblem | undefined {
  const messages = asRecord(body).messages;
  if (!Array.isArray(messages)) return undefined;
  const entries = messages.map(asRecord);
  let turn = 0;
  const turnOf = entries.map((message) => (message.role === 'user' ? ++turn : turn));
  const callingTurns = new Set(
    entries.flatMap((message, index) => (hasToolCalls(message) ? [turnOf[index]] : [])),
  );
  for (const [index, message] of entries.entries()) {
    if (message.role !== 'assistant') continue;
    const reasoning = message.reasoning_content;
    if (hasToolCalls(message) && typeof reasoning !== 'string')
      return problem('The `reasoning_content` in the thinking mode must be passed back to the API.');
    if (reasoning !== undefined && !callingTurns.has(turnOf[index]))
      return problem(
        `messages[${index}]: reasoning_content is only taken back for the turns with tool calls; remove it from this message.`,
      );
  }
  return undefined;
}

function hasToolCalls(message: Record<string, unknown>): boolean {
  return Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
}

function problem(message: string): RequestProblem {
  return { message, param: null, code: 'invalid_request_error' };
}
