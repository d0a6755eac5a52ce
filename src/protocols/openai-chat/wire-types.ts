/**
 * Chat completions wire shapes as the gateway writes them, after `ChatCompletionCreateParams`,
 * `ChatCompletion` and `ChatCompletionChunk` in openai/resources/chat/completions/completions.d.ts
 * (https://platform.openai.com/docs/api-reference/chat). Members the SDK types leave open stay
 * `JsonObject`; fields of other vendors that chat clients echo (OpenRouter's `reasoning_details`,
 * Google's `extra_content`) are typed after their documentation.
 */
import type { JsonObject } from '../wire-json.js';
import type { OpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import type { OpenAIChatUsage } from './convert-openai-chat-usage.js';

declare const keptValue: unique symbol;

/**
 * A content part or message of this protocol that the canonical form keeps whole (a `refusal`
 * part, a `function` message, kinds added to the API later), written back exactly as a chat client
 * sent it. The brand keeps other objects out; `Kind` keeps a message out of `content`.
 */
export type OpenAIChatKept<Kind extends 'content-part' | 'message'> = JsonObject & {
  readonly [keptValue]: Kind;
};

/** Marks a content part a chat client sent, kept whole, as one to write back as it came. */
export function keptContentPartOf(value: JsonObject): OpenAIChatKept<'content-part'> {
  return value as OpenAIChatKept<'content-part'>;
}

/** Marks a message a chat client sent, kept whole, as one to write back as it came. */
export function keptMessageOf(value: JsonObject): OpenAIChatKept<'message'> {
  return value as OpenAIChatKept<'message'>;
}

/** `PromptCacheBreakpoint` of every content part type. */
export interface OpenAIChatPromptCacheBreakpoint {
  mode: 'explicit';
}

/** `ChatCompletionContentPartText` */
export interface OpenAIChatTextPart {
  type: 'text';
  text: string;
  prompt_cache_breakpoint?: OpenAIChatPromptCacheBreakpoint;
}

/** `ChatCompletionContentPartImage` */
export interface OpenAIChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
  prompt_cache_breakpoint?: OpenAIChatPromptCacheBreakpoint;
}

/** `ChatCompletionContentPartInputAudio` */
export interface OpenAIChatAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
  prompt_cache_breakpoint?: OpenAIChatPromptCacheBreakpoint;
}

/** `ChatCompletionContentPart.File` */
export interface OpenAIChatFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
  prompt_cache_breakpoint?: OpenAIChatPromptCacheBreakpoint;
}

/** `ChatCompletionContentPart` */
export type OpenAIChatContentPart =
  OpenAIChatTextPart | OpenAIChatImagePart | OpenAIChatAudioPart | OpenAIChatFilePart;

/**
 * Which vendor issued a token in `reasoning_details`
 * (https://openrouter.ai/docs/use-cases/reasoning-tokens#reasoning-details-api-shape).
 */
export type OpenAIChatReasoningFormat =
  'anthropic-claude-v1' | 'google-gemini-v1' | 'openai-responses-v1' | 'unknown';

/** One entry of `reasoning_details`, as OpenRouter documents it and clients echo it back. */
export type OpenAIChatReasoningDetail =
  | {
      type: 'reasoning.text';
      text: string;
      signature?: string;
      format: OpenAIChatReasoningFormat;
      index: number;
    }
  | { type: 'reasoning.encrypted'; data: string; format: OpenAIChatReasoningFormat; index: number };

/**
 * Google's OpenAI-compatibility field for a function call's thought signature
 * (https://ai.google.dev/gemini-api/docs/thought-signatures#openai).
 */
export interface OpenAIChatExtraContent {
  google: { thought_signature: string };
}

export interface OpenAIChatFunctionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  extra_content?: OpenAIChatExtraContent;
}

/** A tool call kept whole from a chat client (custom tools, future kinds). */
export type OpenAIChatToolCall = OpenAIChatFunctionToolCall | JsonObject;

/*
 * Every message type has an index signature: members the canonical form has no name for
 * (`refusal`, `audio`, `function_call`, other vendors' fields) are kept from a chat client and
 * written back beside the typed ones, for a same-protocol round trip.
 */

/** `ChatCompletionSystemMessageParam` and `ChatCompletionDeveloperMessageParam` */
export interface OpenAIChatSystemMessage {
  role: 'system' | 'developer';
  content: string | OpenAIChatTextPart[];
  name?: string;
  [kept: string]: unknown;
}

/** `ChatCompletionUserMessageParam` */
export interface OpenAIChatUserMessage {
  role: 'user';
  content: string | (OpenAIChatContentPart | OpenAIChatKept<'content-part'>)[];
  name?: string;
  [kept: string]: unknown;
}

/** `ChatCompletionToolMessageParam` */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string | OpenAIChatTextPart[];
  [kept: string]: unknown;
}

/**
 * `ChatCompletionAssistantMessageParam`, with DeepSeek's `reasoning_content`
 * (https://api-docs.deepseek.com/guides/thinking_mode) or OpenRouter's `reasoning`
 * (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks).
 */
export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  content: string | (OpenAIChatTextPart | OpenAIChatKept<'content-part'>)[] | null;
  name?: string;
  reasoning_content?: string;
  reasoning?: string;
  tool_calls?: OpenAIChatToolCall[];
  [kept: string]: unknown;
}

/** `ChatCompletionMessageParam` */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatToolMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatKept<'message'>;

export interface OpenAIChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonObject; strict?: boolean };
}

export type OpenAIChatToolChoice =
  'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export type OpenAIChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema: JsonObject; strict?: boolean };
    };

/** The request body for an upstream; fields only the client's own protocol knew ride in `JsonObject`. */
export interface OpenAIChatRequest extends JsonObject {
  model: string;
  messages: OpenAIChatMessage[];
  tools?: (OpenAIChatFunctionTool | JsonObject)[];
  tool_choice?: OpenAIChatToolChoice | JsonObject;
  parallel_tool_calls?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop?: string[];
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  response_format?: OpenAIChatResponseFormat;
  reasoning_effort?: string;
  web_search_options?: JsonObject;
  user?: string;
  stream?: true;
  stream_options?: JsonObject & { include_usage: true };
}

/** `ChatCompletionMessage` of a reply, with the reasoning fields clients of compatible vendors read. */
export interface OpenAIChatReplyMessage extends JsonObject {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  reasoning_content?: string;
  reasoning_details?: OpenAIChatReasoningDetail[];
  tool_calls?: OpenAIChatToolCall[];
  images?: OpenAIChatGeneratedImage[];
}

/** An image the model generated, as OpenRouter's chat completions carry it in `message.images`. */
export interface OpenAIChatGeneratedImage extends JsonObject {
  type: 'image_url';
  image_url: { url: string };
}

export interface OpenAIChatCompletion extends JsonObject {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: (JsonObject & {
    index: 0;
    message: OpenAIChatReplyMessage;
    logprobs: null | JsonObject;
    finish_reason: OpenAIChatFinishReason;
  })[];
  usage: OpenAIChatUsage;
}

/** A streamed tool call piece: id, type and name in the first, arguments after, extras any time. */
export interface OpenAIChatToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments: string };
  extra_content?: OpenAIChatExtraContent;
}

export interface OpenAIChatDelta {
  role?: 'assistant';
  content?: string;
  refusal?: null;
  reasoning_content?: string;
  reasoning_details?: OpenAIChatReasoningDetail[];
  tool_calls?: OpenAIChatToolCallDelta[];
  images?: OpenAIChatGeneratedImage[];
}

/** `data: {"error": {...}}`, the in-stream error chat clients (and the OpenAI SDK) read. */
export interface OpenAIChatStreamError {
  error: { message: string; type: string; param: null; code: string | null };
}
