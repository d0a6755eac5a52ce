import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import type { Agent } from 'undici';
import { createUpstreamDispatcher } from '../../src/providers/upstream-dispatcher.js';
import { callUpstreamWhole, type WholeCall } from '../../src/relay/call-upstream-whole.js';
import { Cancellation } from '../../src/relay/cancellation.js';
import { ReplyDeadline } from '../../src/relay/classify-transport-failure.js';

let server: Server | undefined;
let dispatcher: Agent | undefined;
afterEach(async () => {
  await dispatcher?.destroy();
  dispatcher = undefined;
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

interface Upstream {
  url: string;
  /** Each request's body as the server received it. */
  bodies: string[];
  /** The distinct sockets requests came on. */
  sockets: Set<Socket>;
  /** Sockets that closed. */
  closed: () => number;
}

async function upstream(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Upstream> {
  const bodies: string[] = [];
  const sockets = new Set<Socket>();
  let closed = 0;
  server = createServer((request, response) => {
    if (!sockets.has(request.socket)) request.socket.once('close', () => (closed += 1));
    sockets.add(request.socket);
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      bodies.push(Buffer.concat(parts).toString());
      answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/chat/completions?alt=x`, bodies, sockets, closed: () => closed };
}

function call(
  url: string,
  overrides: Partial<WholeCall> = {},
): Promise<Awaited<ReturnType<typeof callUpstreamWhole>>> {
  dispatcher ??= createUpstreamDispatcher();
  return callUpstreamWhole({
    url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer upstream-key' },
    body: '{"model":"m"}',
    cancellation: new Cancellation(),
    dispatcher,
    withinMs: 5_000,
    maxBytes: 1024,
    maxErrorBytes: 64,
    ...overrides,
  });
}

/** Writes `parts` one at a time, each in a write of its own, then ends. */
function inParts(parts: string[], status = 200) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', 'x-upstream': 'yes' });
    let index = 0;
    const next = () => {
      if (index === parts.length) return response.end();
      response.write(parts[index++]);
      setTimeout(next, 5);
    };
    next();
  };
}

test('reads a reply written in several chunks whole, with its status and headers, and reuses the connection', async () => {
  const fake = await upstream((request, response) => {
    expect(request.url).toBe('/v1/chat/completions?alt=x');
    expect(request.headers.authorization).toBe('Bearer upstream-key');
    inParts(['{"id":', '"one",', '"n":1}'])(request, response);
  });
  const first = await call(fake.url);
  expect(first.statusCode).toBe(200);
  expect(first.headers['x-upstream']).toBe('yes');
  expect(first.body?.toString()).toBe('{"id":"one","n":1}');
  // undici hands the connection back to the pool on the turn after a reply ends.
  await new Promise((resolve) => setImmediate(resolve));
  const second = await call(fake.url);
  expect(second.body?.toString()).toBe('{"id":"one","n":1}');
  expect(fake.bodies).toEqual(['{"model":"m"}', '{"model":"m"}']);
  expect(fake.sockets.size).toBe(1);
});

test('a reply below 400 longer than maxBytes has no body, declared or not, and its connection is dropped', async () => {
  const declared = await upstream((_request, response) => {
    response.writeHead(200, { 'content-length': '1025' });
    response.end('x'.repeat(1025));
  });
  expect((await call(declared.url)).body).toBeUndefined();
  await expect.poll(declared.closed).toBe(1);

  const exact = await call(declared.url.replace(/\/v1.*/, '/'), { maxBytes: 1025 });
  expect(exact.body).toHaveLength(1025);
});

test('a chunked reply below 400 passing maxBytes midway has no body', async () => {
  const fake = await upstream(inParts(['x'.repeat(600), 'x'.repeat(600), 'never read']));
  expect((await call(fake.url)).body).toBeUndefined();
  await expect.poll(fake.closed).toBe(1);
});

test('an error reply keeps the first maxErrorBytes of its body; a shorter one is kept whole', async () => {
  const long = await upstream(inParts(['e'.repeat(50), 'f'.repeat(50), 'g'.repeat(50)], 500));
  const cut = await call(long.url);
  expect(cut.statusCode).toBe(500);
  expect(cut.body?.toString()).toBe('e'.repeat(50) + 'f'.repeat(14));
  await expect.poll(long.closed).toBe(1);
  await new Promise((resolve) => server!.close(resolve));

  const short = await upstream(inParts(['{"error":', '{"message":"busy"}}'], 429));
  const whole = await call(short.url);
  expect(whole.statusCode).toBe(429);
  expect(whole.body?.toString()).toBe('{"error":{"message":"busy"}}');
});

test('a reply that starts in time but does not end within withinMs fails with ReplyDeadline', async () => {
  const fake = await upstream((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"id":');
  });
  const started = performance.now();
  await expect(call(fake.url, { withinMs: 300 })).rejects.toBeInstanceOf(ReplyDeadline);
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  await expect.poll(fake.closed).toBe(1);
});

test('headers that do not come within withinMs fail with the headers timeout', async () => {
  const fake = await upstream(() => undefined);
  await expect(call(fake.url, { withinMs: 300 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
});

test('a cancellation ends the call at once with its reason and closes the connection', async () => {
  const fake = await upstream((_request, response) => {
    response.writeHead(200);
    response.write('{');
  });
  const cancellation = new Cancellation();
  const pending = call(fake.url, { cancellation });
  await expect.poll(() => fake.bodies.length).toBe(1);
  const reason = new Error('client closed the connection');
  cancellation.abort(reason);
  await expect(pending).rejects.toBe(reason);
  await expect.poll(fake.closed).toBe(1);
  expect(cancellation.listenerCount('abort')).toBe(0);
});

test('a call whose cancellation already aborted is not sent', async () => {
  const fake = await upstream(inParts(['{}']));
  const cancellation = new Cancellation();
  cancellation.abort(new Error('gone'));
  await expect(call(fake.url, { cancellation })).rejects.toThrow('gone');
  expect(fake.bodies).toHaveLength(0);
});

test('a finished call leaves no listener on its cancellation', async () => {
  const fake = await upstream(inParts(['{}']));
  const cancellation = new Cancellation();
  for (let round = 0; round < 20; round++) await call(fake.url, { cancellation });
  expect(cancellation.listenerCount('abort')).toBe(0);
});

test('an upstream that closes mid-reply fails the call', async () => {
  const fake = await upstream((request, response) => {
    response.writeHead(200, { 'content-length': '100' });
    response.write('{"partial":');
    setTimeout(() => request.socket.destroy(), 10);
  });
  await expect(call(fake.url)).rejects.toThrow();
});
