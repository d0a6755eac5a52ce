import type { JsonDocument } from './json-document.js';
import type { ReplyFacts } from '../ir/reply-facts.js';
import type { Usage } from '../ir/usage.js';
import type { UpstreamEndpoint } from '../providers/provider-descriptor.js';
import type { SseEvent } from './sse/sse-event-reader.js';

/**
 * What a tap makes of one upstream event: the client sees it, or must not (the usage chunk it did
 * not ask for), or it is the upstream's own error event (the client sees it; the stream failed),
 * or the protocol cannot read it (the client does not see it and the stream is broken).
 */
export type TapVerdict =
  | { kind: 'forward' }
  | { kind: 'hide' }
  | { kind: 'upstream-error'; message: string }
  | { kind: 'invalid'; detail: string };

export const FORWARD: TapVerdict = { kind: 'forward' };
export const HIDE: TapVerdict = { kind: 'hide' };

/**
 * Reads a passthrough stream's events as they go by: usage and produced text, whether each event
 * is valid for the protocol, and whether the protocol's last event came.
 */
export interface StreamTap {
  /** Inspects one whole event; its data is parsed here, once. */
  onEvent(event: SseEvent): TapVerdict;
  /** Once the upstream has ended cleanly: what its protocol's ending lacks, if anything. */
  missingEnd(): string | undefined;
  /** Usage the upstream reported so far, if any. */
  usage(): Usage | undefined;
  /** Text, reasoning and tool arguments produced so far, to estimate output the upstream never reported. */
  producedText(): string;
  /** A protocol-native error event that fits the stream so far, for when the gateway has to end it itself. */
  errorEvent(error: StreamEndingError): string;
  /** The model that answered and its finish reasons, as far as the stream told them (for traces). */
  facts?(): ReplyFacts | undefined;
}

/** Why the gateway ends a stream itself: its own error's message, code and HTTP status. */
export interface StreamEndingError {
  message: string;
  code: string;
  status: number;
}

export interface PreparedRequest {
  /** The client's own body object when nothing in it changes: its bytes then travel as they came. */
  body: Record<string, unknown>;
  /** The gateway asked the upstream for usage the client did not ask for, so usage-only events are hidden. */
  hideUsageEvents: boolean;
}

/**
 * What the relay needs to pass a request through to an upstream of the same protocol: the
 * declared patches to the body, and usage read on the side from the reply (DESIGN principle 3).
 */
export interface PassthroughCodec {
  upstreamEndpoint: UpstreamEndpoint;
  /** The model to route, output cap and stream flag, read from a client body of this protocol. */
  isStream(body: Record<string, unknown>): boolean;
  outputCap(body: Record<string, unknown>): number | undefined;
  /** Choices asked for (chat's `n`, Gemini's `candidateCount`): each may take up to the output cap. */
  choiceCount?(body: Record<string, unknown>): number;
  /**
   * Refuses, with a 400 naming the member, a body whose members read here (stream flag, output cap,
   * choices, usage chunk) are of the wrong type (`request-flags.ts`).
   */
  checkFlags(body: Record<string, unknown>): void;
  /** Applies only the declared patches: upstream model name, usage in streams. */
  prepareRequest(body: Record<string, unknown>, options: { upstreamModel: string }): PreparedRequest;
  /** The usage a complete reply reports, read from it where it lies (the rest is not parsed). */
  usageFromReply(reply: JsonDocument): Usage | undefined;
  /** The model that answered and its finish reasons, read from a complete reply (for traces). */
  replyFacts?(reply: unknown): ReplyFacts | undefined;
  createStreamTap(options: { hideUsageEvents: boolean }): StreamTap;
  /** Client headers that travel on to an upstream of the same protocol (lower case). */
  forwardedHeaders: readonly string[];
  /** Whether the client asked to see usage events in its stream (only OpenAI chat makes it optional). */
  wantsUsageEvents(body: Record<string, unknown>): boolean;
}

/** The body naming `upstreamModel`: the same object when it names it already (nothing changes). */
export function withUpstreamModel(
  body: Record<string, unknown>,
  upstreamModel: string,
): Record<string, unknown> {
  return body.model === upstreamModel ? body : { ...body, model: upstreamModel };
}
