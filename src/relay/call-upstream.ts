import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import type { Cancellation } from './cancellation.js';

export interface UpstreamCall {
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
  cancellation: Cancellation;
  dispatcher: Dispatcher;
  /** Until the response headers: a non-streamed reply sends them only when generation is done. */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks (`stream_idle_timeout_s`). */
  bodyTimeoutMs: number;
}

export type UpstreamReply = Dispatcher.ResponseData;

/** An upstream reply's status and headers. */
export interface UpstreamHead {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

/** What is kept of an upstream error reply's body: error bodies are never that large. */
export const MAX_ERROR_BODY_BYTES = 1 << 20;

/**
 * One POST to an upstream over the shared keep-alive pools, its body left to read as a stream (a
 * reply read whole goes through `callUpstreamWhole`). Throws on transport failure.
 */
export function callUpstream(call: UpstreamCall): Promise<UpstreamReply> {
  return request(call.url, {
    method: 'POST',
    headers: call.headers,
    body: call.body,
    signal: call.cancellation,
    dispatcher: call.dispatcher,
    headersTimeout: call.headersTimeoutMs,
    bodyTimeout: call.bodyTimeoutMs,
  });
}

/** Upstream statuses that make the relay try the next channel (admin-api section 4, Routing). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
