/**
 * Content of canonical messages. Parts keep what every protocol can say; what only one protocol
 * can say travels in `extensions` (keyed by protocol) so a same-protocol round trip keeps it, and
 * unknown blocks travel whole as `raw` parts.
 */

/** Prompt-cache marker (Anthropic `cache_control`); other protocols drop it and record the loss. */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
  /** Citations, annotations and similar protocol-private detail. */
  extensions?: Record<string, unknown>;
}

export type FileSource =
  { kind: 'url'; url: string } | { kind: 'base64'; data: string } | { kind: 'file-id'; fileId: string };

/** An image, PDF, audio or other file, by link, inline data or uploaded-file id. */
export interface FilePart {
  type: 'file';
  /** IANA media type, e.g. `image/png`; `image/*` when only the kind is known. */
  mediaType: string;
  source: FileSource;
  filename?: string;
  /** OpenAI image `detail`. */
  detail?: 'auto' | 'low' | 'high';
  cacheControl?: CacheControl;
}

/** Model reasoning. `signature` (Anthropic thinking, Gemini thought signature) must return unchanged. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  /** Anthropic `redacted_thinking` data, or OpenAI `encrypted_content`. */
  redactedData?: string;
  /** Protocol-private detail such as an OpenAI reasoning item id. */
  extensions?: Record<string, unknown>;
}

export interface ToolCallPart {
  type: 'tool-call';
  /** Call id; generated when the protocol has none (Gemini). */
  id: string;
  name: string;
  /** Arguments as a JSON text, exactly as produced. */
  arguments: string;
  /** Gemini thought signature attached to a function call. */
  signature?: string;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  /** Tool name when known (Gemini needs it; OpenAI chat does not carry it). */
  name?: string;
  content: (TextPart | FilePart)[];
  isError?: boolean;
  cacheControl?: CacheControl;
}

/** A block no canonical part covers, kept whole for its own protocol. */
export interface RawPart {
  type: 'raw';
  protocol: string;
  value: unknown;
}

export type Part = TextPart | FilePart | ReasoningPart | ToolCallPart | ToolResultPart | RawPart;

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface Message {
  role: Role;
  parts: Part[];
  /** OpenAI `name` of a participant. */
  name?: string;
}
