import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCARD_TIME_LIMIT_MS } from '../../src/http/discard-body-before-close.js';
import { bearer } from '../helpers/client-request.js';
import { expectRawOpenAIError } from '../helpers/expect-raw-error.js';
import { parseResponses, type RawResponse } from '../helpers/raw-http.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * A body over `body_limit_bytes` sent at once: the client must read the 413, not a connection
 * reset. The gateway answers at once and reads the rest of the body, up to a bound, before it
 * closes; past the bound (bytes or seconds) it closes anyway.
 */

const LIMIT = 65_536;
/** The larger of 4x the limit and 8 MiB. */
const DISCARD_BYTES = 8 * 1024 * 1024;
const ROUNDS = 20;
/** For a busy machine. */
const MARGIN_MS = 3_000;
const PATH = '/v1/chat/completions';

let fixture: RelayFixture;

beforeAll(async () => {
  fixture = await startRelayFixture({ balance: 100_000 });
  const patched = await fixture.gw.admin('PATCH', '/settings', { body_limit_bytes: LIMIT });
  expect(patched.body.body_limit_bytes).toBe(LIMIT);
});

afterAll(async () => {
  await fixture?.close();
});

/** A chat body of about `size` bytes. */
function chatBody(size: number): Buffer {
  const content = 'x'.repeat(size);
  return Buffer.from(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content }] }));
}

/**
 * 2 MB is the size reported; 6 MiB is more than the kernel's loopback buffers take, so without the
 * discarding the client is still writing when the gateway closes, every time.
 */
const bodySizes = [
  { name: '2 MB', body: chatBody(2_000_000) },
  { name: '6 MiB', body: chatBody(6 * 1024 * 1024) },
];

function expectTooLarge(response: RawResponse): void {
  expectRawOpenAIError(response, {
    status: 413,
    message: `Request body too large (limit ${LIMIT} bytes)`,
    code: 'request_body_too_large',
  });
}

function toRawResponse(status: number, headers: IncomingHttpHeaders, body: string): RawResponse {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status, headers: flat, body };
}

function requestHeaders(): Record<string, string> {
  return { ...bearer(fixture.key), 'content-type': 'application/json' };
}

async function sendWithUndici(body: Buffer | Readable): Promise<RawResponse> {
  const response = await undiciRequest(fixture.gw.origin + PATH, {
    method: 'POST',
    headers: requestHeaders(),
    body,
  });
  return toRawResponse(response.statusCode, response.headers, await response.body.text());
}

/** Resolves with the response, or rejects with the first socket error, even one after the response. */
function sendWithNodeHttp(options: { body: Buffer; declareLength: boolean }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = requestHeaders();
    if (options.declareLength) headers['content-length'] = options.body.length;
    const request = httpRequest(fixture.gw.origin + PATH, { method: 'POST', headers }, (response) => {
      const received: Buffer[] = [];
      response.on('data', (chunk: Buffer) => received.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(received).toString('utf8');
        // A reset right after the response would still show up here, a tick later.
        setImmediate(() => resolve(toRawResponse(response.statusCode ?? 0, response.headers, text)));
      });
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

describe.each(bodySizes)('a body of $name against a 64 KiB limit, sent at once', ({ body }) => {
  it(`undici with a content-length gets the 413, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await sendWithUndici(body));
    }
  });

  it(`undici chunked gets the 413, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await sendWithUndici(Readable.from([body])));
    }
  });

  it(`node:http with a content-length gets the 413, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await sendWithNodeHttp({ body, declareLength: true }));
    }
  });

  it(`node:http chunked gets the 413, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await sendWithNodeHttp({ body, declareLength: false }));
    }
  });

  it('eight at the same time all get the 413', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        index % 2 === 0 ? sendWithUndici(body) : sendWithNodeHttp({ body, declareLength: index % 4 === 1 }),
      ),
    );
    for (const answer of answers) expectTooLarge(answer);
  });
});

interface EndlessUpload {
  /** The bytes received before the gateway closed, as latin1 text. */
  received: string;
  /** The bytes the client got written before the gateway closed. */
  writtenBytes: number;
  /** When the first answer byte arrived, and when the connection closed, from the start. */
  answeredAfterMs: number;
  closedAfterMs: number;
}

/**
 * A chunked upload over a bare socket that never ends: one chunk of `chunkBytes` every `gapMs`
 * (0: as fast as the socket takes them). Resolves when the gateway closes the connection.
 */
function uploadWithoutEnd(options: { chunkBytes: number; gapMs: number }): Promise<EndlessUpload> {
  const { port } = new URL(fixture.gw.origin);
  const started = performance.now();
  const chunk = Buffer.concat([
    Buffer.from(`${options.chunkBytes.toString(16)}\r\n`),
    Buffer.alloc(options.chunkBytes, 0x20),
    Buffer.from('\r\n'),
  ]);
  const head = [
    `POST ${PATH} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${fixture.key}`,
    'Content-Type: application/json',
    'Transfer-Encoding: chunked',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve) => {
    // Half-open: it goes on writing after the gateway's FIN, as a client that never reads would.
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let answeredAfterMs = -1;
    let timer: NodeJS.Timeout | undefined;
    const writeMore = () => {
      if (socket.destroyed) return;
      if (options.gapMs === 0) {
        while (socket.write(chunk));
        socket.once('drain', writeMore);
      } else {
        socket.write(chunk);
        timer = setTimeout(writeMore, options.gapMs);
      }
    };
    socket.on('data', (data: Buffer) => {
      if (answeredAfterMs < 0) answeredAfterMs = performance.now() - started;
      received.push(data);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({
        received: Buffer.concat(received).toString('latin1'),
        writtenBytes: socket.bytesWritten,
        answeredAfterMs,
        closedAfterMs: performance.now() - started,
      });
    });
    socket.on('connect', () => {
      socket.write(head);
      writeMore();
    });
  });
}

/** The first response in the bytes received. */
function firstResponse(text: string): RawResponse {
  const [first] = parseResponses(text);
  if (!first) throw new Error(`no whole response in: ${text.slice(0, 200)}`);
  return first;
}

describe('a chunked body that never ends', () => {
  it(
    'sent as fast as possible: answered at once, closed past the byte bound, before the time bound',
    async () => {
      const upload = await uploadWithoutEnd({ chunkBytes: 64 * 1024, gapMs: 0 });
      expectTooLarge(firstResponse(upload.received));
      expect(upload.writtenBytes).toBeGreaterThan(DISCARD_BYTES);
      // Read at loopback speed for the whole time bound, it would be gigabytes.
      expect(upload.writtenBytes).toBeLessThan(DISCARD_BYTES * 8);
      expect(upload.closedAfterMs).toBeLessThan(DISCARD_TIME_LIMIT_MS);
    },
    DISCARD_TIME_LIMIT_MS + MARGIN_MS * 2,
  );

  it(
    'sent slowly: answered at once, read until the time bound, then closed',
    async () => {
      const upload = await uploadWithoutEnd({ chunkBytes: 16 * 1024, gapMs: 50 });
      expectTooLarge(firstResponse(upload.received));
      // The refusal comes with the fifth chunk, a quarter of a second in.
      expect(upload.answeredAfterMs).toBeLessThan(MARGIN_MS);
      const openAfterAnswerMs = upload.closedAfterMs - upload.answeredAfterMs;
      expect(openAfterAnswerMs).toBeGreaterThan(DISCARD_TIME_LIMIT_MS - 500);
      expect(openAfterAnswerMs).toBeLessThan(DISCARD_TIME_LIMIT_MS + MARGIN_MS);
    },
    DISCARD_TIME_LIMIT_MS + MARGIN_MS * 2,
  );
});

describe('the gateway keeps serving', () => {
  it('answers requests within the limit after the refusals', async () => {
    const models = await undiciRequest(`${fixture.gw.origin}/v1/models`, { headers: bearer(fixture.key) });
    expect(models.statusCode).toBe(200);
    await models.body.dump();
    const chat = await undiciRequest(fixture.gw.origin + PATH, {
      method: 'POST',
      headers: requestHeaders(),
      body: chatBody(10_000),
    });
    expect(chat.statusCode).toBe(200);
    expect(((await chat.body.json()) as { object: string }).object).toBe('chat.completion');
  });
});
