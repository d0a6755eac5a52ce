import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { convertOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { asString, isJsonObject, withoutKeys } from '../wire-json.js';
import {
  openAIChatCompletionSchema,
  type OpenAIChatWireCompletion,
  type OpenAIChatWireMessage,
} from './wire-schemas.js';
import { decodeGeneratedImages } from './decode-generated-images.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId, toolCallId } from './openai-chat-ids.js';
import { OPENAI_CHAT, rawPart, type OpenAIChatReplyExtension } from './openai-chat-extension.js';

const replyKeys = new Set(['id', 'object', 'created', 'model', 'choices', 'usage']);
const choiceKeys = new Set(['index', 'message', 'finish_reason']);
const messageKeys = new Set([
  'role',
  'content',
  'refusal',
  'reasoning_content',
  'reasoning',
  'tool_calls',
  'images',
]);

/**
 * An upstream's chat completion -> canonical, leniently
 * (https://platform.openai.com/docs/api-reference/chat/object). Only `choices[0]` is kept. The
 * non-standard `reasoning_content` (DeepSeek, vLLM, SGLang) or `reasoning` (OpenRouter, newer vLLM)
 * becomes a reasoning part, OpenRouter's generated `images` file parts (decode-generated-images.ts).
 */
export function decodeOpenAIChatReply(body: unknown, losses: LossLog): CanonicalReply {
  const raw = isJsonObject(body) ? body : {};
  const parsed = openAIChatCompletionSchema.safeParse(raw);
  const completion: OpenAIChatWireCompletion = parsed.success ? parsed.data : {};
  const choices = completion.choices ?? [];
  if (choices.length > 1) losses.dropped('choices', `only the first of ${choices.length} choices is kept`);
  const choice = choices.find((item) => item?.index === 0) ?? choices[0] ?? {};
  const message: OpenAIChatWireMessage = choice.message ?? {};
  const id = completion.id || chatCompletionId(undefined, JSON.stringify(body) ?? '');

  const extension: OpenAIChatReplyExtension = {};
  const fields = withoutKeys(raw, replyKeys);
  const choiceFields = withoutKeys(choice, choiceKeys);
  const messageFields = withoutKeys(message, messageKeys);
  if (fields) extension.fields = fields;
  if (choiceFields) extension.choiceFields = choiceFields;
  if (messageFields) extension.messageFields = messageFields;

  return {
    id,
    model: completion.model ?? '',
    created: completion.created ?? Math.floor(Date.now() / 1000),
    parts: decodeMessageParts(message, { replyId: id, losses }),
    finishReason: mapOpenAIChatFinishReason(choice.finish_reason, {
      refused: message.refusal !== undefined && message.refusal !== '',
    }),
    usage: convertOpenAIChatUsage(completion.usage) ?? emptyUsage(),
    extensions: Object.keys(extension).length > 0 ? { [OPENAI_CHAT]: extension } : {},
  };
}

/**
 * Reasoning first, then text, then the refusal, then generated images, then tool calls: the order
 * the model produced them.
 */
function decodeMessageParts(
  message: OpenAIChatWireMessage,
  context: { replyId: string; losses: LossLog },
): Part[] {
  const { replyId, losses } = context;
  const parts: Part[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  parts.push(...decodeText(message.content));
  if (message.refusal)
    parts.push({ type: 'text', text: message.refusal, extensions: { [OPENAI_CHAT]: { refusal: true } } });
  parts.push(...decodeGeneratedImages(message.images, { path: 'choices[0].message.images', losses }));
  (message.tool_calls ?? []).forEach((call, index) => {
    if (!call) return;
    const fn = call.function;
    if ((call.type !== undefined && call.type !== 'function') || !fn)
      return void parts.push(rawPart({ toolCall: call }));
    parts.push({
      type: 'tool-call',
      id: call.id || toolCallId(`${replyId}:${index}`),
      name: fn.name ?? '',
      arguments: asString(fn.arguments) ?? (fn.arguments === undefined ? '' : JSON.stringify(fn.arguments)),
    });
  });
  return parts;
}

/** `content` is a string; some compatible vendors send an array of text parts. */
function decodeText(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown): Part[] =>
    isJsonObject(part) && typeof part.text === 'string' ? [{ type: 'text', text: part.text }] : [],
  );
}
