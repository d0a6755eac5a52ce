import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './cluster-gateway.js';

/**
 * A gate in front of an upstream (a fake vendor): every request it receives waits there until the
 * test opens the gate, then goes through to `target` and its reply comes back as it is. It counts
 * the requests in flight (received and not yet answered to the end), so a test sees what a
 * gateway lets reach the upstream at once, and it decides when replies, and so settlements, happen.
 */
export interface HeldUpstream {
  /** `http://127.0.0.1:<port>`: a channel's `base_url`. */
  origin: string;
  /** Requests received since the last `reset`. */
  readonly arrived: number;
  readonly inFlight: number;
  /** The most requests in flight at once since the last `reset`. */
  readonly mostInFlight: number;
  /** Lets the waiting requests through, and every later one until `hold`. */
  open(): void;
  /** Later requests wait again. */
  hold(): void;
  /** Resolves once `count` requests have arrived since the last `reset`. */
  arrivals(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once nothing is in flight. */
  drained(timeoutMs?: number): Promise<void>;
  /** Forgets the counts (not the requests in flight) and holds. */
  reset(): void;
  close(): Promise<void>;
}

export async function startHeldUpstream(target: string): Promise<HeldUpstream> {
  let arrived = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  let gate = closedGate();

  async function forward(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    await gate.promise;
    if (response.destroyed) return;
    const outgoing = http.request(`${target}${incoming.url ?? '/'}`, {
      method: incoming.method,
      headers: incoming.headers,
      agent: false,
    });
    outgoing.on('response', (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(response);
    });
    outgoing.on('error', () => response.destroy());
    // The gateway went away (its client aborted, or it was killed): so does the upstream call.
    response.on('close', () => outgoing.destroy());
    outgoing.end(Buffer.concat(chunks));
  }

  const server = http.createServer((incoming, response) => {
    arrived += 1;
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    response.on('close', () => (inFlight -= 1));
    forward(incoming, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    get arrived() {
      return arrived;
    },
    get inFlight() {
      return inFlight;
    },
    get mostInFlight() {
      return mostInFlight;
    },
    open: () => gate.resolve(),
    hold() {
      gate = closedGate();
    },
    async arrivals(count, timeoutMs = 20_000) {
      await waitFor(
        () => arrived,
        (value) => value >= count,
        { timeoutMs, what: `${count} requests at the upstream` },
      );
    },
    async drained(timeoutMs = 20_000) {
      await waitFor(
        () => inFlight,
        (value) => value === 0,
        { timeoutMs, what: 'no request left at the upstream' },
      );
    },
    reset() {
      arrived = 0;
      mostInFlight = inFlight;
      gate = closedGate();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        gate.resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A promise the test resolves to let the waiting requests through. */
function closedGate(): { promise: Promise<void>; resolve(): void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((opened) => (resolve = opened));
  return { promise, resolve };
}
