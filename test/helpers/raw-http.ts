import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One HTTP/1.1 response as read off a raw socket. */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** What a raw-socket client saw: every response, and whether and how the server closed the socket. */
export interface RawExchange {
  responses: RawResponse[];
  /** The bytes received, as latin1 text. */
  text: string;
  /** `closed`: the server ended or reset the connection; `open`: still open when the wait ran out. */
  ending: 'closed' | 'open';
  elapsedMs: number;
}

export interface RawExchangeOptions {
  /** Written in order, with `gapMs` between pieces: a client that dribbles its request. */
  pieces: readonly (string | Buffer)[];
  gapMs?: number;
  /** How long to wait for the server to close after the last piece; default 3 s. */
  waitMs?: number;
}

/**
 * Talks to the gateway over a bare TCP socket, for what no HTTP client will send: malformed request
 * lines, oversized heads, headers that arrive byte by byte. Resolves when the server closes the
 * connection or the wait runs out; write errors after the server closed are expected, not failures.
 */
export function rawExchange(origin: string, options: RawExchangeOptions): Promise<RawExchange> {
  const { port } = new URL(origin);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    let finished = false;
    let waitTimer: NodeJS.Timeout | undefined;
    const finish = (ending: RawExchange['ending']) => {
      if (finished) return;
      finished = true;
      clearTimeout(waitTimer);
      socket.destroy();
      const text = Buffer.concat(received).toString('latin1');
      resolve({ responses: parseResponses(text), text, ending, elapsedMs: performance.now() - started });
    };
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    socket.on('connect', async () => {
      for (const [index, piece] of options.pieces.entries()) {
        if (finished || socket.destroyed) return;
        if (index > 0 && options.gapMs) await sleep(options.gapMs);
        if (finished || socket.destroyed) return;
        socket.write(piece);
      }
      waitTimer = setTimeout(() => finish('open'), options.waitMs ?? 3000);
    });
  });
}

/** Splits the received bytes into responses, by `Content-Length`. */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine = '', ...lines] = rest.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(headEnd + 4), 'latin1').subarray(0, length);
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: bodyBytes.toString('utf8'),
    });
    rest = rest.slice(headEnd + 4 + bodyBytes.length);
  }
  return responses;
}
