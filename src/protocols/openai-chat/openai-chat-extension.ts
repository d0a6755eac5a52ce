import type { Part, RawPart } from '../../ir/content.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';

/** Key of this protocol in `extensions` and in `raw` parts. */
export const OPENAI_CHAT = 'openai-chat';

/** What a chat completions request carries beyond the canonical form (`extensions['openai-chat']`). */
export type OpenAIChatRequestExtension = {
  /** Top-level fields with no canonical home, verbatim (`n`, `logprobs`, `metadata`, `stream_options`...). */
  fields?: JsonObject;
  /** The client capped output with `max_tokens` rather than `max_completion_tokens`. */
  maxTokensField?: 'max_tokens';
  /** How the leading system parts were split into messages, when not one plain `system` message. */
  systemMessages?: SystemMessageShape[];
  /** Indexes in `messages` of canonical system messages that were `developer` messages. */
  developerMessages?: number[];
  /** The client marked `prompt_cache_breakpoint`s itself, so an upstream of this protocol takes them. */
  promptCacheBreakpoints?: true;
  /** The client sent `top_k` (a vLLM / SGLang extension), so an upstream of this protocol takes it. */
  topK?: true;
};

export interface SystemMessageShape {
  role: 'system' | 'developer';
  /** Number of canonical system parts this message holds. */
  parts: number;
  name?: string;
}

/** What a chat completion reply carries beyond the canonical form (`extensions['openai-chat']`). */
export type OpenAIChatReplyExtension = {
  /** Top-level fields of the completion such as `system_fingerprint`, `service_tier`. */
  fields?: JsonObject;
  /** Fields of `choices[0]` such as `logprobs`. */
  choiceFields?: JsonObject;
  /** Fields of `choices[0].message` such as `annotations`, `audio`. */
  messageFields?: JsonObject;
};

/** Marker on a canonical part that was a chat completions-only form. */
export type OpenAIChatPartExtension = {
  /** A reasoning part that came as `reasoning_content` in an assistant message of the request. */
  reasoningContent?: true;
  /** A text part that was the message's `refusal`. */
  refusal?: true;
};

/** Blocks of chat completions that no canonical part covers, kept whole in a `raw` part. */
export type OpenAIChatRawValue =
  | { contentPart: JsonObject }
  | { toolCall: JsonObject }
  | { messageFields: JsonObject }
  | { message: JsonObject };

export function rawPart(value: OpenAIChatRawValue): RawPart {
  return { type: 'raw', protocol: OPENAI_CHAT, value };
}

/** The value of a raw part of this protocol; undefined for other protocols' raw parts. */
export function readRawValue(part: RawPart): OpenAIChatRawValue | undefined {
  if (part.protocol !== OPENAI_CHAT || !isJsonObject(part.value)) return undefined;
  const value = part.value;
  if (isJsonObject(value.contentPart)) return { contentPart: value.contentPart };
  if (isJsonObject(value.toolCall)) return { toolCall: value.toolCall };
  if (isJsonObject(value.messageFields)) return { messageFields: value.messageFields };
  if (isJsonObject(value.message)) return { message: value.message };
  return undefined;
}

export function partExtension(part: Part): OpenAIChatPartExtension {
  if (part.type !== 'text' && part.type !== 'reasoning') return {};
  const value = part.extensions?.[OPENAI_CHAT];
  if (!isJsonObject(value)) return {};
  return {
    ...(value.reasoningContent === true && { reasoningContent: true }),
    ...(value.refusal === true && { refusal: true }),
  };
}

/** The request extension as this codec wrote it, read defensively: it travels as plain data. */
export function readRequestExtension(
  extensions: Record<string, Record<string, unknown>>,
): OpenAIChatRequestExtension {
  const value = extensions[OPENAI_CHAT];
  if (!isJsonObject(value)) return {};
  const systemMessages = Array.isArray(value.systemMessages)
    ? value.systemMessages.filter(isSystemMessageShape)
    : undefined;
  const developerMessages = Array.isArray(value.developerMessages)
    ? value.developerMessages.filter((index): index is number => typeof index === 'number')
    : undefined;
  return {
    ...(isJsonObject(value.fields) && { fields: value.fields }),
    ...(value.maxTokensField === 'max_tokens' && { maxTokensField: 'max_tokens' }),
    ...(systemMessages && { systemMessages }),
    ...(developerMessages && { developerMessages }),
    ...(value.promptCacheBreakpoints === true && { promptCacheBreakpoints: true }),
    ...(value.topK === true && { topK: true }),
  };
}

export function readReplyExtension(
  extensions: Record<string, Record<string, unknown>>,
): OpenAIChatReplyExtension {
  const value = extensions[OPENAI_CHAT];
  if (!isJsonObject(value)) return {};
  return {
    ...(isJsonObject(value.fields) && { fields: value.fields }),
    ...(isJsonObject(value.choiceFields) && { choiceFields: value.choiceFields }),
    ...(isJsonObject(value.messageFields) && { messageFields: value.messageFields }),
  };
}

function isSystemMessageShape(value: unknown): value is SystemMessageShape {
  return (
    isJsonObject(value) &&
    (value.role === 'system' || value.role === 'developer') &&
    typeof value.parts === 'number' &&
    (value.name === undefined || typeof value.name === 'string')
  );
}
