import type { JsonObject } from '../wire-json.js';
import type { GeminiFinishReason } from './map-gemini-finish-reason.js';

/**
 * generateContent wire shapes as the gateway writes them, after `Part`, `Content`,
 * `GenerateContentResponse` and friends in @google/genai (dist/genai.d.ts), narrowed so that a
 * part holds exactly one kind of data (the API's `data` oneof) and roles are `user` or `model`.
 * https://ai.google.dev/api/generate-content
 */

export type GeminiRole = 'user' | 'model';

/** `thought` and `thoughtSignature` may sit beside any data (https://ai.google.dev/api/caching#Part). */
export interface GeminiPartMarks {
  thought?: boolean;
  /** Opaque, base64; https://ai.google.dev/gemini-api/docs/thought-signatures */
  thoughtSignature?: string;
}

/** `Blob`: base64 bytes; `displayName` labels the file (a PDF's name, for instance). */
export interface GeminiBlob {
  mimeType: string;
  data: string;
  displayName?: string;
}

export interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
  displayName?: string;
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args: JsonObject;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: JsonObject;
  /** Files returned by the function (Gemini 3 multimodal function responses). */
  parts?: (GeminiInlineDataPart | GeminiFileDataPart)[];
}

export interface GeminiTextPart extends GeminiPartMarks {
  text: string;
}
export interface GeminiInlineDataPart extends GeminiPartMarks {
  inlineData: GeminiBlob;
}
export interface GeminiFileDataPart extends GeminiPartMarks {
  fileData: GeminiFileData;
}
export interface GeminiFunctionCallPart extends GeminiPartMarks {
  functionCall: GeminiFunctionCall;
}
export interface GeminiFunctionResponsePart {
  functionResponse: GeminiFunctionResponse;
}

/**
 * A part Gemini sent that the canonical form keeps whole (`executableCode`,
 * `codeExecutionResult`...), written back as it came. The brand keeps other objects out.
 */
export type GeminiOpaquePart = JsonObject & { readonly [opaquePart]: true };
declare const opaquePart: unique symbol;

/** A part kept whole in a canonical `raw` part; it was a Gemini part when it arrived. */
export function asOpaquePart(value: JsonObject): GeminiOpaquePart {
  return value as GeminiOpaquePart;
}

export type GeminiFilePart = GeminiInlineDataPart | GeminiFileDataPart;

export type GeminiPart =
  | GeminiTextPart
  | GeminiInlineDataPart
  | GeminiFileDataPart
  | GeminiFunctionCallPart
  | GeminiFunctionResponsePart
  | GeminiOpaquePart;

export interface GeminiContent {
  role: GeminiRole;
  parts: GeminiPart[];
}

export interface GeminiSystemInstruction {
  parts: GeminiTextPart[];
}

declare const keptValue: unique symbol;

/**
 * A tool, `toolConfig` or `thinkingConfig` a Gemini client sent, written back whole because it is
 * Gemini's own form already (a tool other than functions, a config that still means what the
 * canonical request says). The brand keeps other objects out; `Kind` keeps each in its place.
 */
export type GeminiKept<Kind extends 'tool' | 'tool-config' | 'thinking-config'> = JsonObject & {
  readonly [keptValue]: Kind;
};

/** Marks a value a Gemini client sent, kept whole, as one to write back as it came. */
export function keptOf<Kind extends 'tool' | 'tool-config' | 'thinking-config'>(
  value: JsonObject,
): GeminiKept<Kind> {
  return value as GeminiKept<Kind>;
}

/**
 * `FunctionDeclaration` (https://ai.google.dev/api/caching#FunctionDeclaration). Its members a
 * Gemini client sent beyond these (`behavior`, `response`, `responseJsonSchema`...) ride along in
 * the index signature, for a same-protocol round trip.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Full JSON Schema, unlike the OpenAPI subset of `parameters`. */
  parametersJsonSchema?: JsonObject;
  [kept: string]: unknown;
}

/**
 * `Tool` (https://ai.google.dev/api/caching#Tool), one kind per entry as the gateway writes them;
 * `googleSearch` has no options, as another vendor's search options do not carry over.
 */
export type GeminiTool =
  | { functionDeclarations: GeminiFunctionDeclaration[] }
  | { googleSearch: Record<string, never> }
  | GeminiKept<'tool'>;

/** `FunctionCallingConfigMode` (https://ai.google.dev/api/caching#Mode_1). */
export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED';

/** `FunctionCallingConfig` (https://ai.google.dev/api/caching#FunctionCallingConfig). */
export interface GeminiFunctionCallingConfig {
  mode: GeminiFunctionCallingMode;
  allowedFunctionNames?: string[];
}

/**
 * `ToolConfig` (https://ai.google.dev/api/caching#ToolConfig). Members of a Gemini client's own
 * config beside `functionCallingConfig` (`retrievalConfig`...) ride along in the index signature.
 */
export interface GeminiToolConfig {
  functionCallingConfig: GeminiFunctionCallingConfig;
  [kept: string]: unknown;
}

/**
 * `ThinkingConfig` (https://ai.google.dev/gemini-api/docs/thinking), as the gateway writes it;
 * `thinkingLevel` goes out only in a Gemini client's own config, kept whole.
 */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  includeThoughts?: boolean;
}

/**
 * `GenerationConfig` (https://ai.google.dev/api/generate-content#generationconfig). Members with no
 * canonical place that a Gemini client sent (`candidateCount`, `responseModalities`,
 * `speechConfig`...) ride along in the index signature.
 */
export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  /**
   * Full JSON Schema, unlike the OpenAPI subset of `responseSchema`; `unknown` as in the SDK, since
   * beside a MIME type of Gemini's own it is what the client sent, unread.
   */
  responseJsonSchema?: unknown;
  thinkingConfig?: GeminiThinkingConfig | GeminiKept<'thinking-config'>;
  [kept: string]: unknown;
}

/**
 * A generateContent request body (https://ai.google.dev/api/generate-content#request-body).
 * Tools and generation config are built by their own encoders; members only a Gemini client
 * sent (`safetySettings`, `cachedContent`...) travel beside them.
 */
export type GeminiRequest = {
  contents: GeminiContent[];
  systemInstruction?: GeminiSystemInstruction;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig | GeminiKept<'tool-config'>;
  generationConfig?: GeminiGenerationConfig;
  [kept: string]: unknown;
};

/** `UsageMetadata` (https://ai.google.dev/api/generate-content#UsageMetadata). */
export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  [detail: string]: unknown;
}

export interface GeminiCandidate {
  content?: { role: 'model'; parts: GeminiPart[] };
  finishReason?: GeminiFinishReason;
  index: number;
  /** `safetyRatings`, `citationMetadata`, `groundingMetadata`... kept from a Gemini upstream. */
  [kept: string]: unknown;
}

/** `GenerateContentResponse`, one reply or one stream chunk. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  usageMetadata?: GeminiUsageMetadata;
  modelVersion: string;
  responseId: string;
  /** `promptFeedback`, `modelStatus`... kept from a Gemini upstream. */
  [kept: string]: unknown;
}

/** The error status names (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). */
export type GeminiErrorStatus =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'RESOURCE_EXHAUSTED'
  | 'CANCELLED'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED';

/** `{"error": {...}}`, as a body or as a chunk inside a stream. */
export interface GeminiErrorBody {
  error: { code: number; message: string; status: GeminiErrorStatus };
}
