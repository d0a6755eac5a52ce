import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Cancellation } from './cancellation.js';
import { UpstreamReplyReader, type UpstreamBody } from './upstream-reply-reader.js';

export interface UpstreamCall {
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
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

/** What is kept of an upstream error reply's body: error bodies are never that large. */
export const MAX_ERROR_BODY_BYTES = 1 << 20;

/**
 * One POST to an upstream over the shared keep-alive pools. undici's dispatcher is driven with a
 * handler of the gateway's own (`UpstreamReplyReader`): the body's chunks go straight to the reader,
 * with no stream, promise or async resource per reply or per chunk in between (undici's `request`
 * makes all of them; for a reply read whole they cost about a tenth of a relayed request's CPU).
 * Throws on transport failure, when a wait runs out (the whole reply's deadline as
 * `ReplyDeadline`) and when the call is cancelled (with the cancellation's reason).
 */
export function callUpstream(call: UpstreamCall): Promise<UpstreamReply> {
  const url = originAndPath(call.url);
  return new Promise((resolve, reject) => {
    const reader = new UpstreamReplyReader(call, resolve, reject);
    if (call.cancellation.aborted) return reader.cancelled();
    call.dispatcher.dispatch(
      {
        origin: url.origin,
        path: url.path,
        method: 'POST',
        headers: call.headers,
        body: call.body,
        headersTimeout: call.waitMs,
        bodyTimeout: call.waitMs,
      },
      reader,
    );
  });
}

/** Upstream URLs already parsed: a channel's calls go to a few URLs, again and again. */
const parsedUrls = new Map<string, { origin: string; path: string }>();
const MAX_PARSED_URLS = 1024;

/** The origin and the path with its query of an absolute URL, as `new URL` reads them. */
function originAndPath(text: string): { origin: string; path: string } {
  let parsed = parsedUrls.get(text);
  if (parsed) return parsed;
  const url = new URL(text);
  parsed = { origin: url.origin, path: url.pathname + url.search };
  if (parsedUrls.size >= MAX_PARSED_URLS) parsedUrls.clear();
  parsedUrls.set(text, parsed);
  return parsed;
}

/** Upstream statuses that make the relay try the next channel (admin-api section 4, Routing). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
