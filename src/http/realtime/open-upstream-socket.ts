import { WebSocket } from 'ws';
import { describeTransportError } from '../../providers/describe-transport-error.js';
import type { Cancellation } from '../../relay/cancellation.js';
import type { UpstreamHead } from '../../relay/upstream-call.js';

/** How one attempt to open an upstream's WebSocket ended. */
export type UpstreamSocketOutcome =
  /** Upgraded; paused until the session takes it over, so no event is missed. */
  | { kind: 'open'; socket: WebSocket }
  /** The upstream answered the upgrade with an HTTP status; its body read up to `MAX_REFUSAL_BYTES`. */
  | { kind: 'refused'; reply: UpstreamHead; body: Buffer }
  /** No upgrade within the connect timeout. */
  | { kind: 'timeout' }
  | { kind: 'unreachable'; detail: string };

/** An error reply to an upgrade is short; more than this is not kept. */
const MAX_REFUSAL_BYTES = 64 * 1024;
/** What `ws` calls its handshake deadline passing. */
const HANDSHAKE_TIMEOUT_MESSAGE = 'Opening handshake has timed out';

/**
 * Opens one WebSocket to an upstream (`http(s):` URLs become `ws(s):`), with no subprotocol and no
 * compression: the credentials travel in headers, and frames are relayed as they are. The whole
 * handshake must end within `timeoutMs` (`connect_timeout_s`). Never throws.
 */
export function openUpstreamSocket(options: {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxPayload: number;
  cancellation: Cancellation;
}): Promise<UpstreamSocketOutcome> {
  return new Promise((resolve) => {
    let ended = false;
    const end = (outcome: UpstreamSocketOutcome) => {
      if (ended) return;
      ended = true;
      options.cancellation.off('abort', abandon);
      resolve(outcome);
    };
    const socket = new WebSocket(webSocketUrl(options.url), {
      headers: options.headers,
      handshakeTimeout: options.timeoutMs,
      perMessageDeflate: false,
      maxPayload: options.maxPayload,
      followRedirects: false,
    });
    const abandon = () => {
      socket.terminate();
      end({ kind: 'unreachable', detail: 'the client closed the connection' });
    };
    options.cancellation.once('abort', abandon);
    socket.on('error', (error) => {
      end(
        error.message === HANDSHAKE_TIMEOUT_MESSAGE
          ? { kind: 'timeout' }
          : { kind: 'unreachable', detail: describeTransportError(error) },
      );
    });
    socket.once('open', () => {
      socket.pause();
      if (options.cancellation.aborted) {
        socket.terminate();
        return end({ kind: 'unreachable', detail: 'the client closed the connection' });
      }
      end({ kind: 'open', socket });
    });
    socket.once('unexpected-response', (request, response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const refused = () => {
        request.destroy();
        end({
          kind: 'refused',
          reply: { statusCode: response.statusCode ?? 502, headers: response.headers },
          body: Buffer.concat(chunks),
        });
      };
      response.on('data', (chunk: Buffer) => {
        if (size >= MAX_REFUSAL_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_REFUSAL_BYTES - size));
        size += chunk.length;
        if (size >= MAX_REFUSAL_BYTES) refused();
      });
      response.once('end', refused);
      response.once('error', refused);
      response.once('close', refused);
    });
  });
}

/** The WebSocket scheme of an upstream's HTTP URL. */
function webSocketUrl(url: string): string {
  if (url.startsWith('https:')) return `wss:${url.slice('https:'.length)}`;
  if (url.startsWith('http:')) return `ws:${url.slice('http:'.length)}`;
  return url;
}
