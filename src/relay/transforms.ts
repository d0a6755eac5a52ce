import type { JsonDocument } from '../protocols/json-document.js';
import type { ReplyFacts } from '../ir/reply-facts.js';
import type { Usage } from '../ir/usage.js';

/**
 * What the relay does to an upstream's complete reply (its bytes, and the same as a JSON document
 * known to be valid) before the client gets it.
 */
export interface ReplyTransform {
  (
    upstreamBody: Buffer,
    reply: JsonDocument,
  ): {
    body: Buffer | string;
    usage: Usage | undefined;
    /** Text, reasoning and tool arguments produced, for output the upstream did not count. */
    producedText: () => string;
    /** Calls charged at `per_request` (images, searches); 1 when absent. */
    calls?: number;
    /** The model that answered and its finish reasons, where the reply tells them; read only when called. */
    facts?: (() => ReplyFacts | undefined) | undefined;
  };
}

/**
 * Why an upstream stream stopped short. `broken`: the gateway could not read it on (a frame its
 * protocol cannot parse, a close mid-frame, a missing last event) and must end the client's
 * stream with an error event of its own. `reported`: the upstream sent its own error event, which
 * the client already has.
 */
export type StreamFailure = { kind: 'broken'; detail: string } | { kind: 'reported'; message: string };

/** What the relay does to an upstream stream, chunk by chunk, before the client gets it. */
export interface StreamTransform {
  /**
   * Upstream bytes in; what to send the client now (nothing when undefined). The stream's first
   * output goes to `sendFirst` as soon as it is ready, when one is given, so that the client's first
   * byte does not wait for the rest of a chunk of many events.
   */
  push(chunk: Buffer, sendFirst?: (out: Buffer | string) => void): Buffer | string | undefined;
  /** The upstream ended: anything left to send. */
  end(): Buffer | string | undefined;
  /** Set once the upstream stream failed; the relay then reads no more of it. */
  failure(): StreamFailure | undefined;
  /** Usage the upstream reported so far. */
  usage(): Usage | undefined;
  /** Text, reasoning and tool arguments produced so far. */
  producedText(): string;
  /** Whether content has begun, for streams whose content is not text (speech). */
  hasContent?(): boolean;
  /** The model that answered and its finish reasons, as far as the stream told them. */
  facts?(): ReplyFacts | undefined;
  /** A protocol-native error event for the client, when the gateway must end the stream itself. */
  errorEvent(options: { message: string; code: string; status: number }): string;
}
