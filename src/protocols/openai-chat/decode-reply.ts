import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { convertOpenAIChatUsage } from './convert-openai-chat-usage.js';
import { isJsonObject, withoutKeys, asFiniteNumber, asString, type JsonObject } from '../wire-json.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { chatCompletionId, toolCallId } from './openai-chat-ids.js';
import { OPENAI_CHAT, rawPart, type OpenAIChatReplyExtension } from './openai-chat-extension.js';

const replyKeys = new Set(['id', 'object', 'created', 'model', 'choices', 'usage']);
const choiceKeys = new Set(['index', 'message', 'finish_reason']);
const messageKeys = new Set(['role', 'content', 'refusal', 'reasoning_content', 'reasoning', 'tool_calls']);

/**
 * An upstream's chat completion -> canonical, leniently
 * (https://platform.openai.com/docs/api-reference/chat/object). Only `choices[0]` is kept. The
 * non-standard `reasoning_content` (DeepSeek, vLLM, SGLang) or `reasoning` (OpenRouter, newer vLLM)
 * becomes a reasoning part.
 */
export function decodeOpenAIChatReply(body: unknown, losses: LossLog): CanonicalReply {
  const completion = isJsonObject(body) ? body : {};
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  if (choices.length > 1) losses.dropped('choices', `only the first of ${choices.length} choices is kept`);
  const choice = choices.find((item) => isJsonObject(item) && item.index === 0) ?? choices[0];
  const choiceRecord = isJsonObject(choice) ? choice : {};
  const message = isJsonObject(choiceRecord.message) ? choiceRecord.message : {};
  const id = asString(completion.id) || chatCompletionId(undefined, JSON.stringify(body) ?? '');

  const extension: OpenAIChatReplyExtension = {};
  const fields = withoutKeys(completion, replyKeys);
  const choiceFields = withoutKeys(choiceRecord, choiceKeys);
  const messageFields = withoutKeys(message, messageKeys);
  if (fields) extension.fields = fields;
  if (choiceFields) extension.choiceFields = choiceFields;
  if (messageFields) extension.messageFields = messageFields;

  return {
    id,
    model: asString(completion.model) ?? '',
    created: asFiniteNumber(completion.created) ?? Math.floor(Date.now() / 1000),
    parts: decodeMessageParts(message, id),
    finishReason: mapOpenAIChatFinishReason(choiceRecord.finish_reason),
    usage: convertOpenAIChatUsage(completion.usage) ?? emptyUsage(),
    extensions: Object.keys(extension).length > 0 ? { [OPENAI_CHAT]: extension } : {},
  };
}

/** Reasoning first, then text, then the refusal, then tool calls: the order the model produced them. */
function decodeMessageParts(message: JsonObject, replyId: string): Part[] {
  const parts: Part[] = [];
  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning);
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  parts.push(...decodeText(message.content));
  if (typeof message.refusal === 'string' && message.refusal !== '')
    parts.push({ type: 'text', text: message.refusal, extensions: { [OPENAI_CHAT]: { refusal: true } } });
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((call: unknown, index) => {
    if (!isJsonObject(call)) return;
    const fn = isJsonObject(call.function) ? call.function : undefined;
    if ((call.type !== undefined && call.type !== 'function') || !fn)
      return void parts.push(rawPart({ toolCall: call }));
    parts.push({
      type: 'tool-call',
      id: asString(call.id) || toolCallId(`${replyId}:${index}`),
      name: asString(fn.name) ?? '',
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
