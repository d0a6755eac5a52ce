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

/** The vendor whose servers issued an opaque token; only that vendor can read it back. */
export type TokenIssuer = 'anthropic' | 'gemini' | 'openai';

/**
 * An opaque value a vendor issued: an Anthropic thinking signature or redacted thinking, a Gemini
 * thought signature, OpenAI encrypted reasoning. It returns to its issuer byte for byte and is
 * never forwarded to another vendor, which would refuse it.
 */
export interface IssuedToken {
  issuer: TokenIssuer;
  value: string;
}

/**
 * Model reasoning. `signature` (Anthropic thinking signature, Gemini thought signature, OpenAI
 * encrypted reasoning) must return to its issuer unchanged.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: IssuedToken;
  /** Anthropic `redacted_thinking` data: reasoning that is only an opaque token, with no text. */
  redactedData?: IssuedToken;
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
  signature?: IssuedToken;
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
