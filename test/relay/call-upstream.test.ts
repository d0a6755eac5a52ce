import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { Agent } from 'undici';
import { createUpstreamDispatcher } from '../../src/providers/upstream-dispatcher.js';
import { callUpstream } from '../../src/relay/call-upstream.js';
import type { UpstreamCall, UpstreamReply } from '../../src/relay/upstream-call.js';
import { Cancellation } from '../../src/relay/cancellation.js';
import type { UpstreamBody } from '../../src/relay/upstream-call.js';
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

function call(url: string, overrides: Partial<UpstreamCall> = {}): Promise<UpstreamReply> {
  dispatcher ??= createUpstreamDispatcher();
  return callUpstream({
    url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer upstream-key' },
    body: '{"model":"m"}',
    cancellation: new Cancellation(),
    dispatcher,
    stream: false,
    waitMs: 5_000,
    maxBytes: 1024,
    maxErrorBytes: 64,
    ...overrides,
  });
}

function bodyOf(reply: UpstreamReply): Buffer | undefined {
  if (reply.kind !== 'whole') throw new Error('expected a reply read whole');
  return reply.body;
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

/** Answers 200 with `first` and then nothing more, the reply held open. */
function startsAndHolds(first: string) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200);
    response.write(first);
  };
}

test('a call not streamed reads a reply written in several chunks whole, with its status and headers, and reuses the connection', async () => {
  const fake = await upstream((request, response) => {
    expect(request.url).toBe('/v1/chat/completions?alt=x');
    expect(request.headers.authorization).toBe('Bearer upstream-key');
    inParts(['{"id":', '"one",', '"n":1}'])(request, response);
  });
  const first = await call(fake.url);
  expect(first.statusCode).toBe(200);
  expect(first.headers['x-upstream']).toBe('yes');
  expect(bodyOf(first)?.toString()).toBe('{"id":"one","n":1}');
  // undici hands the connection back to the pool on the turn after a reply ends.
  await new Promise((resolve) => setImmediate(resolve));
  const second = await call(fake.url);
  expect(bodyOf(second)?.toString()).toBe('{"id":"one","n":1}');
  expect(fake.bodies).toEqual(['{"model":"m"}', '{"model":"m"}']);
  expect(fake.sockets.size).toBe(1);
});

test('a reply below 400 longer than maxBytes has no body, declared or not, and its connection is dropped', async () => {
  const declared = await upstream((_request, response) => {
    response.writeHead(200, { 'content-length': '1025' });
    response.end('x'.repeat(1025));
  });
  expect(bodyOf(await call(declared.url))).toBeUndefined();
  await expect.poll(declared.closed).toBe(1);

  const exact = await call(declared.url.replace(/\/v1.*/, '/'), { maxBytes: 1025 });
  expect(bodyOf(exact)).toHaveLength(1025);
});

test('a chunked reply below 400 passing maxBytes midway has no body', async () => {
  const fake = await upstream(inParts(['x'.repeat(600), 'x'.repeat(600), 'never read']));
  expect(bodyOf(await call(fake.url))).toBeUndefined();
  await expect.poll(fake.closed).toBe(1);
});

test('an error reply keeps the first maxErrorBytes of its body; a shorter one is kept whole', async () => {
  const long = await upstream(inParts(['e'.repeat(50), 'f'.repeat(50), 'g'.repeat(50)], 500));
  const cut = await call(long.url);
  expect(cut.statusCode).toBe(500);
  expect(bodyOf(cut)?.toString()).toBe('e'.repeat(50) + 'f'.repeat(14));
  await expect.poll(long.closed).toBe(1);
  await new Promise((resolve) => server!.close(resolve));

  const short = await upstream(inParts(['{"error":', '{"message":"busy"}}'], 429));
  const whole = await call(short.url);
  expect(whole.statusCode).toBe(429);
  expect(bodyOf(whole)?.toString()).toBe('{"error":{"message":"busy"}}');
});

test('a reply that starts in time but does not end within waitMs fails with ReplyDeadline', async () => {
  const fake = await upstream(startsAndHolds('{"id":'));
  const started = performance.now();
  await expect(call(fake.url, { waitMs: 300 })).rejects.toBeInstanceOf(ReplyDeadline);
  expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  await expect.poll(fake.closed).toBe(1);
});

test('headers that do not come within waitMs fail with the headers timeout', async () => {
  const fake = await upstream(() => undefined);
  await expect(call(fake.url, { waitMs: 300 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
});

test('a cancellation ends the call at once with its reason and closes the connection', async () => {
  const fake = await upstream(startsAndHolds('{'));
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

describe('a streamed call', () => {
  const streamed = async (url: string, overrides: Partial<UpstreamCall> = {}): Promise<UpstreamBody> => {
    const reply = await call(url, { stream: true, ...overrides });
    if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind} ${reply.statusCode}`);
    return reply.body;
  };

  /** Everything the body hands over, until its end. */
  const readAll = (body: UpstreamBody) =>
    new Promise<{ chunks: string[]; error: Error | undefined }>((resolve) => {
      const chunks: string[] = [];
      body.read(
        (chunk) => chunks.push(chunk.toString()),
        (error) => resolve({ chunks, error }),
      );
      body.resume();
    });

  test('is answered at its headers; its first chunk, then the others in order, then its end', async () => {
    const fake = await upstream(inParts(['one', 'two', 'three']));
    const body = await streamed(fake.url);
    expect((await body.first())?.toString()).toBe('one');
    expect(await readAll(body)).toEqual({ chunks: ['two', 'three'], error: undefined });
  });

  test('chunks that come while paused wait, in order, and the end waits for them', async () => {
    const fake = await upstream(inParts(['a', 'b', 'c', 'd']));
    const body = await streamed(fake.url);
    expect((await body.first())?.toString()).toBe('a');
    const chunks: string[] = [];
    let ended = false;
    body.read(
      (chunk) => chunks.push(chunk.toString()),
      () => (ended = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(chunks).toEqual([]);
    expect(ended).toBe(false);
    body.resume();
    await expect.poll(() => ended).toBe(true);
    expect(chunks).toEqual(['b', 'c', 'd']);
  });

  test('a paused body holds the upstream back, and resuming takes the rest', async () => {
    const piece = 'x'.repeat(64 * 1024);
    let written = 0;
    let blocked = false;
    const fake = await upstream((_request, response) => {
      response.writeHead(200);
      const more = () => {
        while (written < 200) {
          written += 1;
          if (!response.write(piece)) {
            blocked = true;
            return response.once('drain', more);
          }
        }
        response.end();
      };
      more();
    });
    const body = await streamed(fake.url);
    const first = await body.first();
    await expect.poll(() => blocked).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(200);
    const { chunks, error } = await readAll(body);
    expect(error).toBeUndefined();
    expect(first!.length + chunks.join('').length).toBe(200 * piece.length);
  });

  test('an empty body gives no first chunk', async () => {
    const fake = await upstream(inParts([]));
    const body = await streamed(fake.url);
    expect(await body.first()).toBeUndefined();
  });

  test('an error reply is read whole, up to maxErrorBytes', async () => {
    const fake = await upstream(inParts(['{"error":', '"overloaded"}'], 529));
    const reply = await call(fake.url, { stream: true });
    expect(reply).toMatchObject({ kind: 'whole', statusCode: 529 });
    expect(bodyOf(reply)?.toString()).toBe('{"error":"overloaded"}');
  });

  test('a body that breaks ends with the error, after what came before it', async () => {
    const fake = await upstream((request, response) => {
      response.writeHead(200);
      response.write('first');
      setTimeout(() => response.write('second'), 20);
      setTimeout(() => request.socket.destroy(), 60);
    });
    const body = await streamed(fake.url);
    expect((await body.first())?.toString()).toBe('first');
    const { chunks, error } = await readAll(body);
    expect(chunks).toEqual(['second']);
    expect(error).toBeInstanceOf(Error);
  });

  test('silence past waitMs ends the body with the body timeout', async () => {
    const fake = await upstream(startsAndHolds('one'));
    const body = await streamed(fake.url, { waitMs: 300 });
    await body.first();
    const { error } = await readAll(body);
    expect(error).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  test('a cancellation ends the body at once with its reason, paused or not, and drops the connection', async () => {
    const fake = await upstream(startsAndHolds('one'));
    const cancellation = new Cancellation();
    const body = await streamed(fake.url, { cancellation });
    await body.first();
    const ended = new Promise<Error | undefined>((resolve) =>
      body.read(
        () => undefined,
        (error) => resolve(error),
      ),
    );
    const reason = new Error('client closed the connection');
    cancellation.abort(reason);
    await expect(ended).resolves.toBe(reason);
    await expect.poll(fake.closed).toBe(1);
    expect(cancellation.listenerCount('abort')).toBe(0);
  });

  test('destroying a body drops its connection and its listener, and hands over nothing more', async () => {
    const fake = await upstream((_request, response) => {
      response.writeHead(200);
      response.write('one');
      setTimeout(() => response.write('two'), 20);
    });
    const cancellation = new Cancellation();
    const body = await streamed(fake.url, { cancellation });
    await body.first();
    const chunks: string[] = [];
    let ended = false;
    body.read(
      (chunk) => chunks.push(chunk.toString()),
      () => (ended = true),
    );
    body.destroy();
    body.resume();
    await expect.poll(fake.closed).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chunks).toEqual([]);
    expect(ended).toBe(false);
    expect(cancellation.listenerCount('abort')).toBe(0);
  });
});
