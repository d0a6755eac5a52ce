import type { UpstreamCall, UpstreamReply } from './upstream-call.js';
import { UpstreamReplyReader } from './upstream-reply-reader.js';

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
