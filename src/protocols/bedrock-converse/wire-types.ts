import type { JsonObject } from '../wire-json.js';

/**
 * Converse wire shapes as the gateway writes them, after `ConverseRequest`, `Message`,
 * `ContentBlock`, `ConverseResponse` and `ConverseStreamOutput` in
 * @aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html). Over HTTP
 * the members keep these names (restJson1) and blobs (`bytes`, `redactedContent`) are base64
 * strings. Blocks of this protocol kept whole travel as `ConverseKeptBlock`.
 */

declare const keptBlock: unique symbol;

/** A block, tool or system block of this protocol kept whole (guard content, system tools...), written back as it came. */
export type ConverseKeptBlock = JsonObject & { readonly [keptBlock]: true };

export function keptBlockOf(value: JsonObject): ConverseKeptBlock {
  return value as ConverseKeptBlock;
}

/** `CachePointBlock` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html) */
export interface ConverseCachePoint {
  cachePoint: { type: 'default'; ttl?: '5m' | '1h' };
}

export type ConverseImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';
export type ConverseDocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md';
export type ConverseVideoFormat =
  'mkv' | 'mov' | 'mp4' | 'webm' | 'flv' | 'mpeg' | 'mpg' | 'wmv' | 'three_gp';

/** `ImageSource`, `DocumentSource`, `VideoSource`: inline bytes (base64) or an S3 object. */
export type ConverseMediaSource = { bytes: string } | { s3Location: { uri: string; bucketOwner?: string } };

export interface ConverseImageBlock {
  image: { format: ConverseImageFormat; source: ConverseMediaSource };
}

export interface ConverseDocumentBlock {
  document: { format: ConverseDocumentFormat; name: string; source: ConverseMediaSource };
}

export interface ConverseVideoBlock {
  video: { format: ConverseVideoFormat; source: ConverseMediaSource };
}

export type ConverseFileBlock = ConverseImageBlock | ConverseDocumentBlock | ConverseVideoBlock;

export interface ConverseTextBlock {
  text: string;
}

/** `ReasoningContentBlock`: signed text, or reasoning the provider encrypted (base64). */
export interface ConverseReasoningBlock {
  reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string };
}

/** `ToolUseBlock` */
export interface ConverseToolUseBlock {
  toolUse: { toolUseId: string; name: string; input: JsonObject };
}

/** `ToolResultContentBlock` as the gateway writes it. */
export type ConverseToolResultContent = ConverseTextBlock | { json: unknown } | ConverseFileBlock;

/** `ToolResultBlock` */
export interface ConverseToolResultBlock {
  toolResult: { toolUseId: string; content: ConverseToolResultContent[]; status?: 'success' | 'error' };
}

export type ConverseContentBlock =
  | ConverseTextBlock
  | ConverseFileBlock
  | ConverseReasoningBlock
  | ConverseToolUseBlock
  | ConverseToolResultBlock
  | ConverseCachePoint
  | ConverseKeptBlock;

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseContentBlock[];
}

export type ConverseSystemBlock = ConverseTextBlock | ConverseCachePoint | ConverseKeptBlock;

/** `InferenceConfiguration` */
export interface ConverseInferenceConfig {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
}

/** `Tool`: a tool specification, a cache point after the tools before it, or a kept system tool. */
export type ConverseTool =
  | {
      toolSpec: { name: string; description?: string; inputSchema: { json: JsonObject }; strict?: boolean };
    }
  | ConverseCachePoint
  | ConverseKeptBlock;

/** `ToolChoice` */
export type ConverseToolChoice = { auto: JsonObject } | { any: JsonObject } | { tool: { name: string } };

/** `OutputConfig`: structured output (`textFormat`) and effort. */
export interface ConverseOutputConfig {
  textFormat?: {
    type: 'json_schema';
    structure: { jsonSchema: { schema: string; name?: string; description?: string } };
  };
  effort?: string;
  [member: string]: unknown;
}

/** The body of `POST /model/{modelId}/converse` (and `/converse-stream`): no `modelId`, it is in the path. */
export interface ConverseRequestBody {
  messages: ConverseMessage[];
  system?: ConverseSystemBlock[];
  inferenceConfig?: ConverseInferenceConfig;
  toolConfig?: { tools: ConverseTool[]; toolChoice?: ConverseToolChoice };
  additionalModelRequestFields?: JsonObject;
  outputConfig?: ConverseOutputConfig;
  [member: string]: unknown;
}

/** `TokenUsage`: `inputTokens` excludes the tokens read from and written to the cache. */
export interface ConverseWireUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
  cacheDetails?: { ttl: '5m' | '1h'; inputTokens: number }[];
}

/** `ConverseResponse` */
export interface ConverseResponseBody {
  output: { message: ConverseMessage };
  stopReason: string;
  usage: ConverseWireUsage;
  metrics: { latencyMs: number };
  [member: string]: unknown;
}
