import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, as it came: the raw body is what the signature covers. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  body: any;
}

/** How the receiver treats the next requests: answer with a status, or take them and never answer. */
export type ReceiverMode = { kind: 'answer'; status: number } | { kind: 'hang' };

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`, the same across `stop` and `start`. */
  url: string;
  /** Every request received, in order, whatever it was answered. */
  received: ReceivedWebhook[];
  /** Received event ids, in order (an id repeats when the event was sent again). */
  ids(): string[];
  setMode(mode: ReceiverMode): void;
  /** Closes the port: attempts meet a refused connection until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server standing for the operator's webhook endpoint (admin-api section 10.1):
 * it records each request's headers and raw body, and answers 200 unless told otherwise.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let mode: ReceiverMode = { kind: 'answer', status: 200 };
  let server: Server | undefined;
  let port = 0;

  const listen = async () => {
    const listening = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        received.push({ headers: request.headers, rawBody, body: parseJson(rawBody) });
        if (mode.kind === 'hang') {
          hanging.add(response);
          return;
        }
        response.writeHead(mode.status, { 'content-type': 'text/plain' }).end('seen');
      });
    });
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
    });
    port = (listening.address() as AddressInfo).port;
    server = listening;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    for (const response of hanging) response.destroy();
    hanging.clear();
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    closing.closeAllConnections();
    await closed;
  };

  await listen();
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    ids: () => received.map((each) => String(each.body?.id)),
    setMode(next) {
      mode = next;
    },
    stop,
    async start() {
      if (!server) await listen();
    },
    close: stop,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
