import type { JsonObject } from '../wire-json.js';
import type { AnthropicWireUsage } from './encode-anthropic-usage.js';
import type { AnthropicStopReason } from './map-anthropic-finish-reason.js';

/**
 * Messages wire shapes as the gateway writes them, after `MessageCreateParamsBase`,
 * `ContentBlockParam`, `Message` and `RawMessageStreamEvent` in
 * @anthropic-ai/sdk/resources/messages/messages.d.ts (https://docs.anthropic.com/en/api/messages).
 * Only what the gateway writes is listed; blocks of this protocol kept whole travel as
 * `AnthropicKeptBlock`.
 */

declare const keptBlock: unique symbol;

/**
 * A block or tool of this protocol that the canonical form keeps whole (server tool blocks,
 * server tools, blocks added to the API later), written back exactly as it came.
 */
export type AnthropicKeptBlock = JsonObject & { readonly [keptBlock]: true };

/** Marks a value of this protocol, kept whole, as a block to write back as it came. */
export function keptBlockOf(value: JsonObject): AnthropicKeptBlock {
  return value as AnthropicKeptBlock;
}

/** `CacheControlEphemeral` */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** `TextBlockParam`; `citations` as the client or upstream gave them. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
  citations?: unknown[] | null;
}

export type AnthropicImageSource =
  | { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

/** `ImageBlockParam` */
export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

/** `Base64PDFSource`, `PlainTextSource`, `URLPDFSource`, `FileDocumentSource` */
export type AnthropicDocumentSource =
  | { type: 'base64'; media_type: 'application/pdf'; data: string }
  | { type: 'text'; media_type: 'text/plain'; data: string }
  | { type: 'url'; url: string }
  | { type: 'file'; file_id: string };

/** `DocumentBlockParam` */
export interface AnthropicDocumentBlock {
  type: 'document';
  source: AnthropicDocumentSource;
  title?: string;
  cache_control?: AnthropicCacheControl;
}

/** `ThinkingBlockParam` / `ThinkingBlock`: `signature` is opaque (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking). */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** `RedactedThinkingBlockParam` / `RedactedThinkingBlock` */
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** `ToolUseBlockParam`; a reply's `ToolUseBlock` also names its `caller`. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: JsonObject;
  caller?: { type: 'direct' };
}

/** `ToolResultBlockParam` */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | (AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock)[];
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicFileBlock = AnthropicImageBlock | AnthropicDocumentBlock;

/** What a request's user turn holds. */
export type AnthropicUserBlock =
  AnthropicTextBlock | AnthropicFileBlock | AnthropicToolResultBlock | AnthropicKeptBlock;

/** What an assistant turn (in a request, or a reply's `content`) holds. */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicKeptBlock;

export type AnthropicContentBlock = AnthropicUserBlock | AnthropicAssistantBlock;

/** `MessageParam`, and `SystemMessageParam` for system messages within the conversation. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant' | 'system';
  content: string | AnthropicContentBlock[];
}

/** A custom tool (`Tool`), with the client's fields the canonical form has no name for. */
export interface AnthropicCustomTool {
  name: string;
  description?: string;
  input_schema: JsonObject;
  strict?: boolean;
  cache_control?: AnthropicCacheControl;
  [field: string]: unknown;
}

/** `WebSearchTool20250305` */
export interface AnthropicWebSearchTool {
  type: 'web_search_20250305';
  name: 'web_search';
  user_location?: JsonObject;
}

export type AnthropicTool = AnthropicCustomTool | AnthropicWebSearchTool | AnthropicKeptBlock;

/** `ToolChoice` */
export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** `Message` as a reply states it (https://docs.anthropic.com/en/api/messages#response). */
export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicAssistantBlock[];
  stop_reason: AnthropicStopReason | null;
  stop_sequence: string | null;
  stop_details: unknown;
  container: unknown;
  usage: AnthropicWireUsage;
}

/** `RawContentBlockDelta` */
export type AnthropicBlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string };

/** `RawMessageStreamEvent` and the `error` event (https://docs.anthropic.com/en/docs/build-with-claude/streaming). */
export type AnthropicStreamEvent =
  | {
      type: 'message_start';
      message: Omit<AnthropicMessage, 'usage' | 'stop_details' | 'container'> & {
        usage: Pick<
          AnthropicWireUsage,
          'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'
        >;
      };
    }
  | { type: 'content_block_start'; index: number; content_block: AnthropicAssistantBlock }
  | { type: 'content_block_delta'; index: number; delta: AnthropicBlockDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: AnthropicStopReason; stop_sequence: string | null };
      usage: Omit<AnthropicWireUsage, 'cache_creation'>;
    }
  | { type: 'message_stop' };

/**
 * `MessageCreateParams` as the gateway sends it upstream. Fields of the client's request the
 * canonical form has no name for go back as they came, hence the open index.
 */
export interface AnthropicMessagesRequest {
  model: string;
  max_tokens: number;
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  thinking?: JsonObject;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  output_config?: unknown;
  metadata?: JsonObject;
  stream?: true;
  [field: string]: unknown;
}
