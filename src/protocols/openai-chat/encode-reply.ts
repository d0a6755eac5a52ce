import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { assignMembers, type JsonObject } from '../wire-json.js';
import { encodeOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { toOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId } from './openai-chat-ids.js';
import { partExtension, readRawValue, readReplyExtension } from './openai-chat-extension.js';

/**
 * Canonical reply -> a `chat.completion` (https://platform.openai.com/docs/api-reference/chat/object).
 * Reasoning goes out as `reasoning_content`, the field DeepSeek-style clients read (client-api 4.7
 * rule 3); chat completions has nowhere for thinking signatures, so they are lost (recorded).
 */
export function encodeOpenAIChatReply(reply: CanonicalReply, losses: LossLog): JsonObject {
  const extension = readReplyExtension(reply.extensions);
  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: JsonObject[] = [];
  const messageFields: JsonObject = { ...extension.messageFields };
  reply.parts.forEach((part, index) => {
    const path = `parts[${index}]`;
    switch (part.type) {
      case 'text':
        (partExtension(part).refusal ? refusal : text).push(part.text);
        return;
      case 'reasoning':
        reasoning.push(part.text);
        if (part.signature)
          losses.dropped(`${path}.signature`, 'chat completions does not keep thinking signatures');
        if (part.redactedData)
          losses.dropped(`${path}.redactedData`, 'chat completions has no field for redacted thinking');
        return;
      case 'tool-call':
        if (part.signature)
          losses.dropped(`${path}.signature`, 'chat completions tool calls carry no signature');
        toolCalls.push({
          id: part.id,
          type: 'function',
          function: { name: part.name, arguments: part.arguments },
        });
        return;
      case 'raw': {
        const raw = readRawValue(part);
        if (raw && 'toolCall' in raw) toolCalls.push(raw.toolCall);
        else if (raw && 'messageFields' in raw) assignMembers(messageFields, raw.messageFields);
        else losses.dropped(path, `a raw block of ${part.protocol} has no chat completions form`);
        return;
      }
      case 'file':
      case 'tool-result':
        losses.dropped(path, `a chat completion message cannot hold a ${part.type} part`);
        return;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  });

  const finish = toOpenAIChatFinishReason(reply.finishReason, { hasToolCalls: toolCalls.length > 0 });
  if (!finish.exact)
    losses.coerced(
      'finishReason',
      `${reply.finishReason.unified} (${reply.finishReason.raw ?? 'none'}) goes as ${finish.value}`,
    );
  const message: JsonObject = {
    role: 'assistant',
    content: text.length > 0 ? text.join('') : toolCalls.length > 0 || refusal.length > 0 ? null : '',
    refusal: refusal.length > 0 ? refusal.join('') : null,
    ...(reasoning.length > 0 && { reasoning_content: reasoning.join('') }),
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
    ...messageFields,
  };
  return {
    id: chatCompletionId(reply.id, `${reply.model}:${reply.created}`),
    object: 'chat.completion',
    created: reply.created,
    model: reply.model,
    choices: [{ index: 0, message, logprobs: null, ...extension.choiceFields, finish_reason: finish.value }],
    usage: encodeOpenAIChatUsage(reply.usage),
    ...extension.fields,
  };
}
