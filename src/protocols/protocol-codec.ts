import type { LossLog } from '../ir/loss.js';
import type { CanonicalReply } from '../ir/reply.js';
import type { CanonicalRequest } from '../ir/request.js';
import type { StreamEvent } from '../ir/stream-event.js';
import type { Usage } from '../ir/usage.js';
import type { SseEvent } from './sse/sse-event-reader.js';

export type ProtocolName = ClientProtocolName | UpstreamOnlyProtocolName;

/** Protocols that clients speak too: each has a client endpoint and a passthrough. */
export type ClientProtocolName = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';

/** Protocols only upstreams speak: no client endpoint, so nothing is ever passed through to them. */
export type UpstreamOnlyProtocolName = 'bedrock-converse';

export interface DecodeRequestContext {
  losses: LossLog;
  /** Model and stream flag when the protocol carries them outside the body (Gemini: in the path). */
  model?: string;
  stream?: boolean;
}

/**
 * The non-standard member of chat completions messages an OpenAI-compatible vendor carries model
 * thinking in: `reasoning_content` (DeepSeek, https://api-docs.deepseek.com/guides/thinking_mode)
 * or `reasoning` (OpenRouter, https://openrouter.ai/docs/use-cases/reasoning-tokens).
 */
export type ChatReasoningField = 'reasoning_content' | 'reasoning';

export interface EncodeRequestOptions {
  losses: LossLog;
  /** `default_max_tokens`, for protocols that require an output cap (Anthropic). */
  defaultMaxTokens: number;
  /**
   * Chat completions: the member the upstream takes assistant reasoning back in; absent, reasoning
   * goes back only where a chat client sent it as `reasoning_content`.
   */
  chatReasoningField?: ChatReasoningField;
}

/**
 * One wire protocol, both directions (DESIGN principle 2): decode what arrives in this protocol
 * into the canonical form, encode the canonical form into this protocol. The same codec serves
 * inbound (client requests, replies to clients) and outbound (upstream requests and replies).
 */
export interface ProtocolCodec {
  name: ProtocolName;

  decodeRequest(body: Record<string, unknown>, context: DecodeRequestContext): CanonicalRequest;
  /** The request body for an upstream of this protocol (URL concerns such as Gemini's model stay with the provider). */
  encodeRequest(request: CanonicalRequest, options: EncodeRequestOptions): Record<string, unknown>;

  decodeReply(body: unknown, losses: LossLog): CanonicalReply;
  encodeReply(reply: CanonicalReply, losses: LossLog): unknown;

  /** Upstream SSE events of this protocol -> canonical events, incrementally. */
  createStreamDecoder(losses: LossLog): StreamDecoder;
  /** Canonical events -> SSE text of this protocol, as its clients expect it. */
  createStreamEncoder(options: StreamEncoderOptions): StreamEncoder;
}

export interface StreamEncoderOptions {
  losses: LossLog;
  /** Input tokens estimated by the gateway, for events that must state usage before the upstream has. */
  estimatedInputTokens: number;
  /** Public model name to show the client. */
  model: string;
  /** OpenAI chat: the client asked for the usage chunk (`stream_options.include_usage`). */
  includeUsage?: boolean;
}

export interface StreamDecoder {
  /** Canonical events for one upstream SSE event. */
  push(event: SseEvent): StreamEvent[];
  /** End of the upstream stream: closes open blocks; emits a finish (`other`) when none came. */
  end(): StreamEvent[];
  /**
   * Set once an event came that the protocol cannot read (data that is not a JSON object): why,
   * as a detail for `upstream_stream_broken`. The decoder reads nothing after it.
   */
  broken(): string | undefined;
}

export interface StreamEncoder {
  /** Wire text for one canonical event (may be empty). */
  push(event: StreamEvent): string;
  /** What the protocol sends after the last event (e.g. `data: [DONE]`), or '' . */
  end(): string;
}

/**
 * The encoder's input estimate when `usage` has no input count, else undefined: the estimate is
 * read only when it is used, as reading it may run the tokenizer.
 */
export function estimateUnlessReported(
  usage: Usage | undefined,
  options: StreamEncoderOptions,
): number | undefined {
  return usage?.inputTokens === undefined ? options.estimatedInputTokens : undefined;
}
