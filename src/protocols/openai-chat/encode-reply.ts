import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { assignMembers, type JsonObject } from '../wire-json.js';
import { encodeOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { toOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId } from './openai-chat-ids.js';
import { partExtension, readRawValue, readReplyExtension } from './openai-chat-extension.js';
import {
  encodeReasoningDetails,
  encodeToolCallExtraContent,
  type ReasoningBlock,
} from './reasoning-details.js';
import { encodeGeneratedImage } from './encode-generated-image.js';
import type {
  OpenAIChatCompletion,
  OpenAIChatGeneratedImage,
  OpenAIChatReplyMessage,
  OpenAIChatToolCall,
} from './wire-types.js';

/**
 * Canonical reply -> a `chat.completion` (https://platform.openai.com/docs/api-reference/chat/object).
 * Reasoning goes out as `reasoning_content`, the field DeepSeek-style clients read (client-api 4.7
 * rule 3), and whole, with its signatures, in `reasoning_details`; a Gemini signature on a tool
 * call in its `extra_content` (see reasoning-details.ts), so that the client echoes them back.
 */
export function encodeOpenAIChatReply(reply: CanonicalReply, losses: LossLog): OpenAIChatCompletion {
  const extension = readReplyExtension(reply.extensions);
  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: ReasoningBlock[] = [];
  const toolCalls: OpenAIChatToolCall[] = [];
  const images: OpenAIChatGeneratedImage[] = [];
  const messageFields: JsonObject = { ...extension.messageFields };
  reply.parts.forEach((part, index) => {
    const path = `parts[${index}]`;
    switch (part.type) {
      case 'text':
        (partExtension(part).refusal ? refusal : text).push(part.text);
        return;
      case 'reasoning':
        reasoning.push(part);
        return;
      case 'tool-call': {
        const extraContent = encodeToolCallExtraContent(part.signature, {
          path: `${path}.signature`,
          losses,
        });
        toolCalls.push({
          id: part.id,
          type: 'function',
          function: { name: part.name, arguments: part.arguments },
          ...(extraContent && { extra_content: extraContent }),
        });
        return;
      }
      case 'raw': {
        const raw = readRawValue(part);
        if (raw && 'toolCall' in raw) toolCalls.push(raw.toolCall);
        else if (raw && 'messageFields' in raw) assignMembers(messageFields, raw.messageFields);
        else losses.dropped(path, `a raw block of ${part.protocol} has no chat completions form`);
        return;
      }
      case 'file': {
        const image = encodeGeneratedImage(part, { path, losses });
        if (image) images.push(image);
        return;
      }
      case 'tool-result':
        losses.dropped(path, 'a chat completion message cannot hold a tool-result part');
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
  const message: OpenAIChatReplyMessage = {
    role: 'assistant',
    content: text.length > 0 ? text.join('') : toolCalls.length > 0 || refusal.length > 0 ? null : '',
    refusal: refusal.length > 0 ? refusal.join('') : null,
    ...(reasoning.length > 0 && {
      reasoning_content: reasoning.map((part) => part.text).join(''),
      reasoning_details: encodeReasoningDetails(reasoning),
    }),
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
    ...(images.length > 0 && { images }),
  };
  assignMembers(message, messageFields);
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
