import { redactKeys } from '../providers/redact-keys.js';
import type { UpstreamHead } from './upstream-call.js';

export interface UpstreamError {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Short text for the usage log. */
  summary: string;
}

/**
 * An upstream's error reply, passed to the client as it came: status, body and `Retry-After`
 * (client-api section 7), with the channel's keys redacted from the body. The body was read up to
 * `MAX_ERROR_BODY_BYTES` (error bodies are never that large).
 */
export function readUpstreamError(
  reply: UpstreamHead,
  raw: Buffer,
  options: { channelKeys: readonly string[] },
): UpstreamError {
  const text = redactKeys(raw.toString('utf8'), options.channelKeys);
  const body = text.length === raw.length ? raw : Buffer.from(text, 'utf8');
  const headers: Record<string, string> = {};
  const contentType = reply.headers['content-type'];
  headers['content-type'] = (Array.isArray(contentType) ? contentType[0] : contentType) ?? 'application/json';
  const retryAfter = reply.headers['retry-after'];
  if (retryAfter !== undefined)
    headers['retry-after'] = Array.isArray(retryAfter) ? (retryAfter[0] ?? '') : retryAfter;
  return {
    status: reply.statusCode,
    headers,
    body,
    summary: `upstream ${reply.statusCode}: ${text.slice(0, 500)}`,
  };
}
