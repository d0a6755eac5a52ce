import { openUpstreamSocket } from '../http/realtime/open-upstream-socket.js';
import { Cancellation } from '../relay/cancellation.js';
import { readUpstreamErrorMessage } from './read-upstream-error-message.js';

const MAX_EVENT_BYTES = 1024 * 1024;

/**
 * The channel test of a channel that serves only realtime (admin-api section 14): its WebSocket
 * opened, and its first event read. The Realtime API opens every session with `session.created`,
 * and answers a wrong key or model with an `error` event and a close once upgraded, so only that
 * first event tells a working channel. Nothing is sent: no response is created, nothing billed.
 * Answers null when the channel works, else why not.
 */
export async function probeRealtime(call: {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
}): Promise<string | null> {
  const cancellation = new Cancellation();
  const timer = setTimeout(() => cancellation.abort(new Error('timed out')), call.timeoutMs);
  try {
    const opened = await openUpstreamSocket({
      url: call.url,
      headers: call.headers,
      timeoutMs: call.timeoutMs,
      maxPayload: MAX_EVENT_BYTES,
      cancellation,
    });
    if (opened.kind === 'timeout' || cancellation.aborted) return `timed out after ${call.timeoutMs} ms`;
    if (opened.kind === 'unreachable') return opened.detail;
    if (opened.kind === 'refused') {
      const message = readUpstreamErrorMessage(opened.body.toString('utf8'));
      return message ? `HTTP ${opened.reply.statusCode}: ${message}` : `HTTP ${opened.reply.statusCode}`;
    }
    const { socket } = opened;
    const first = new Promise<string | null>((resolve) => {
      socket.once('message', (data: Buffer) => resolve(describeFirstEvent(data.toString('utf8'))));
      socket.once('close', (code) => resolve(`the session closed before its first event (${code})`));
      cancellation.once('abort', () => resolve(`timed out after ${call.timeoutMs} ms`));
    });
    socket.resume();
    const result = await first;
    socket.terminate();
    return result;
  } finally {
    clearTimeout(timer);
  }
}

function describeFirstEvent(text: string): string | null {
  let event: { type?: unknown } | null;
  try {
    event = JSON.parse(text) as { type?: unknown } | null;
  } catch {
    return 'the first event is not JSON';
  }
  if (event?.type === 'session.created') return null;
  const message = readUpstreamErrorMessage(text);
  return message ?? `the first event is ${typeof event?.type === 'string' ? event.type : 'not an event'}`;
}
