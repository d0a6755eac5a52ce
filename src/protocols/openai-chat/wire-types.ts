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

export type OpenAIChatContentPart =
  | { type: 'text'; text: string; prompt_cache_breakpoint?: { mode: 'explicit' } }
  | {
      type: 'image_url';
      image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
      prompt_cache_breakpoint?: { mode: 'explicit' };
    }
  | {
      type: 'input_audio';
      input_audio: { data: string; format: 'wav' | 'mp3' };
      prompt_cache_breakpoint?: { mode: 'explicit' };
    }
  | {
      type: 'file';
      file: { file_data?: string; file_id?: string; filename?: string };
      prompt_cache_breakpoint?: { mode: 'explicit' };
    };

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

export type OpenAIChatMessage =
  | { role: 'system' | 'developer'; content: string | OpenAIChatContentPart[] | JsonObject[]; name?: string }
  | { role: 'user'; content: string | OpenAIChatContentPart[] | JsonObject[]; name?: string }
  | { role: 'tool'; tool_call_id: string; content: string | OpenAIChatContentPart[] | JsonObject[] }
  | {
      role: 'assistant';
      content: string | OpenAIChatContentPart[] | JsonObject[] | null;
      name?: string;
      reasoning_content?: string;
      tool_calls?: OpenAIChatToolCall[];
    };

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
  messages: (OpenAIChatMessage | JsonObject)[];
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
}

/** `data: {"error": {...}}`, the in-stream error chat clients (and the OpenAI SDK) read. */
export interface OpenAIChatStreamError {
  error: { message: string; type: string; param: null; code: string | null };
}
