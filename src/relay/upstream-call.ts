import type { Readable } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Cancellation } from './cancellation.js';

/** One upstream call as the relay makes it, and the reply it gets: read by `callUpstream` and its reader. */
export interface UpstreamCall {
  url: string;
  headers: Record<string, string>;
  body: Buffer | string | Readable;
  cancellation: Cancellation;
  dispatcher: Dispatcher;
  /**
   * A streamed call's reply below 400 is handed over once its headers are in, its body paused;
   * any other reply is read whole.
   */
  stream: boolean;
  /**
   * Streamed: the headers, then each body chunk, within this many milliseconds of the last
   * (`stream_idle_timeout_s`). Read whole: the headers and the whole body within it, together
   * (`upstream_timeout_s`).
   */
  waitMs: number;
  /** The longest body a reply below 400 read whole may have. */
  maxBytes: number;
  /** What is kept of an error reply's body (400 and above); the rest is not read. */
  maxErrorBytes: number;
}

/** An upstream reply's status and headers. */
export interface UpstreamHead {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

export type UpstreamReply =
  | (UpstreamHead & {
      kind: 'whole';
      /** Undefined when a reply below 400 passed `maxBytes` (the rest was not read). */
      body: Buffer | undefined;
    })
  | (UpstreamHead & {
      kind: 'stream';
      /** Paused until read. */
      body: UpstreamBody;
    });

/** A streamed upstream body, read chunk by chunk as the relay can take it. */
export interface UpstreamBody {
  /** The first chunk, or undefined when the body ends empty; the body stays paused after it. */
  first(): Promise<Buffer | undefined>;
  /**
   * Hands each further chunk to `onData` while not paused (it starts paused), then calls `onEnd`
   * once: with no error once the body ended and every chunk was handed over, or with the error
   * at once when the body failed.
   */
  read(onData: (chunk: Buffer) => void, onEnd: (error?: Error) => void): void;
  pause(): void;
  resume(): void;
  /** Stops reading; a body not yet ended is cut, and its connection dropped. */
  destroy(): void;
}
