import type { Usage } from '../ir/usage.js';

/** What the relay does to an upstream's complete reply before the client gets it. */
export interface ReplyTransform {
  (upstreamBody: Buffer): { body: Buffer | string; usage: Usage | undefined };
}

/** What the relay does to an upstream stream, chunk by chunk, before the client gets it. */
export interface StreamTransform {
  /** Upstream bytes in; what to send the client now (nothing when undefined). */
  push(chunk: Buffer): Buffer | string | undefined;
  /** The upstream ended: anything left to send. */
  end(): string | undefined;
  /** Usage the upstream reported so far. */
  usage(): Usage | undefined;
  /** Text, reasoning and tool arguments produced so far. */
  producedText(): string;
  /** A protocol-native error event for the client, when the gateway must end the stream itself. */
  errorEvent(options: { message: string; code: string }): string;
}
