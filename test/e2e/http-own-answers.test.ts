import { maxHeaderSize } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { expectRawOpenAIError } from '../helpers/expect-raw-error.js';
import { rawExchange } from '../helpers/raw-http.js';
import { startRelayFixture } from '../helpers/relay-fixture.js';
import { seedUserWithKey } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * Answers the HTTP layer gives by itself, before a request reaches a route: 431, 414, 400 for a
 * malformed request. Each has the request id header, the family A body, and closes the connection.
 */

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  gw = await startTestGateway();
  ({ key } = await seedUserWithKey(gw));
});

afterAll(async () => {
  await gw?.close();
});

const exchange = (...pieces: (string | Buffer)[]) => rawExchange(gw.origin, { pieces });
const head = (requestLine: string, headers: string[] = []) =>
  [requestLine, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');

describe('oversized request heads', () => {
  it('answers headers past the header buffer with 431 and closes', async () => {
    const result = await exchange(
      head('GET /v1/models HTTP/1.1', [`X-Big: ${'a'.repeat(maxHeaderSize + 100)}`]),
    );
    expect(result.responses).toHaveLength(1);
    expectRawOpenAIError(result.responses[0], {
      status: 431,
      message: `Request header fields too large (limit ${maxHeaderSize} bytes)`,
      code: 'request_header_too_large',
    });
    expect(result.ending).toBe('closed');
  });

  it('answers many small headers adding up past the buffer with 431', async () => {
    const headers = Array.from({ length: 1000 }, (_, index) => `X-Header-${index}: ${'v'.repeat(20)}`);
    const result = await exchange(head('GET /v1/models HTTP/1.1', headers));
    expectRawOpenAIError(result.responses[0], {
      status: 431,
      message: `Request header fields too large (limit ${maxHeaderSize} bytes)`,
      code: 'request_header_too_large',
    });
    expect(result.ending).toBe('closed');
  });

  it('answers a request line longer than the header buffer with 414, whole or still arriving', async () => {
    const target = `/v1/models?${'q'.repeat(maxHeaderSize + 100)}`;
    for (const pieces of [[head(`GET ${target} HTTP/1.1`)], [`GET ${target}`]]) {
      const result = await exchange(...pieces);
      expectRawOpenAIError(result.responses[0], {
        status: 414,
        message: 'Request URI too long (limit 8192 bytes)',
        code: 'request_uri_too_long',
      });
      expect(result.ending).toBe('closed');
    }
  });

  it('answers a URL past 8 KiB that Node still reads with 414 from the normal pipeline', async () => {
    const response = await send(gw.origin, `/v1/models?${'q'.repeat(9000)}`, { headers: bearer(key) });
    expectOpenAIError(response, {
      status: 414,
      message: 'Request URI too long (limit 8192 bytes)',
      code: 'request_uri_too_long',
    });
    const undecodable = await send(gw.origin, `/v1/models%zz${'q'.repeat(9000)}`, { headers: bearer(key) });
    expectOpenAIError(undecodable, {
      status: 414,
      message: 'Request URI too long (limit 8192 bytes)',
      code: 'request_uri_too_long',
    });
    const justUnder = await send(gw.origin, `/v1/models?${'q'.repeat(8000)}`, { headers: bearer(key) });
    expect(justUnder.status).toBe(200);
  });
});

describe('malformed requests', () => {
  const malformed: [string, string, string][] = [
    ['an invalid method', head('G@T /v1/models HTTP/1.1'), 'invalid method'],
    ['bytes that are no request at all', '\u0000\u0001\u0002hello\r\n\r\n', 'invalid method'],
    ['an unknown HTTP version', head('GET /v1/models HTTP/9.x'), 'invalid HTTP version'],
    ['a space inside a header name', head('GET /v1/models HTTP/1.1', ['X Bad: 1']), 'invalid header'],
    [
      'a control byte in a header value',
      head('GET /v1/models HTTP/1.1', ['X-Bad: a\u0001b']),
      'invalid header',
    ],
    [
      'an invalid Content-Length',
      head('POST /v1/chat/completions HTTP/1.1', ['Content-Length: 12abc']),
      'invalid Content-Length',
    ],
    [
      'two different Content-Length headers',
      head('POST /v1/chat/completions HTTP/1.1', ['Content-Length: 2', 'Content-Length: 3']),
      'conflicting Content-Length',
    ],
    [
      'Content-Length together with chunked encoding',
      head('POST /v1/chat/completions HTTP/1.1', ['Content-Length: 3', 'Transfer-Encoding: chunked']) +
        '0\r\n\r\n',
      'invalid Transfer-Encoding',
    ],
    [
      'an invalid chunk size',
      head('POST /v1/chat/completions HTTP/1.1', ['Transfer-Encoding: chunked', `Authorization: Bearer x`]) +
        'zz\r\nabc\r\n0\r\n\r\n',
      'invalid chunked encoding',
    ],
  ];

  for (const [name, request, detail] of malformed) {
    it(`answers ${name} with 400 and closes`, async () => {
      const result = await exchange(request);
      expect(result.responses, result.text).toHaveLength(1);
      expectRawOpenAIError(result.responses[0], {
        status: 400,
        message: `Malformed HTTP request: ${detail}`,
        code: 'bad_request',
      });
      expect(result.ending).toBe('closed');
    });
  }

  it('answers a pipelined request before the malformed one that follows it', async () => {
    const result = await exchange(
      head('GET /v1/models HTTP/1.1', [`Authorization: Bearer ${key}`]) + head('G@T / HTTP/1.1'),
    );
    expect(result.responses.map((response) => response.status)).toEqual([200, 400]);
    expect(JSON.parse(result.responses[0]?.body ?? '')).toMatchObject({ object: 'list' });
    expectRawOpenAIError(result.responses[1], {
      status: 400,
      message: 'Malformed HTTP request: invalid method',
      code: 'bad_request',
    });
    expect(result.ending).toBe('closed');
  });

  it('gives every answer its own request id and keeps serving afterwards', async () => {
    const ids = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const result = await exchange(head('G@T / HTTP/1.1'));
      ids.add(result.responses[0]?.headers['x-gateway-request-id'] ?? '');
    }
    expect(ids.size).toBe(5);
    const models = await send(gw.origin, '/v1/models', { headers: bearer(key) });
    expect(models.status).toBe(200);
  });
});

describe('answers Node or Fastify would give without the error shape', () => {
  it('answers an HTTP/1.1 request without Host with 400 and closes', async () => {
    const result = await exchange(`GET /v1/models HTTP/1.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expectRawOpenAIError(result.responses[0], {
      status: 400,
      message: 'Malformed HTTP request: missing Host header',
      code: 'bad_request',
    });
    expect(result.ending).toBe('closed');
    const http10 = await exchange(`GET /v1/models HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect(http10.responses[0]?.status).toBe(200);
  });

  it('serves a request whose Expect is not 100-continue', async () => {
    const result = await exchange(
      head('GET /v1/models HTTP/1.1', [`Authorization: Bearer ${key}`, 'Expect: teapot']),
    );
    expect(result.responses[0]?.status).toBe(200);
    expect(result.responses[0]?.headers['x-gateway-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('answers a request that arrives while the gateway shuts down with 503 in the error shape', async () => {
    const fixture = await startRelayFixture();
    try {
      fixture.upstream.script({ type: 'reply', delayMs: 1200 });
      const body = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const slow = head('POST /v1/chat/completions HTTP/1.1', [
        `Authorization: Bearer ${fixture.key}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ]);
      // The second request comes on the same connection after the shutdown began.
      let closing: Promise<void> | undefined;
      const shutdown = setTimeout(() => (closing = fixture.gw.close(5000)), 200);
      const result = await rawExchange(fixture.gw.origin, {
        pieces: [slow + body, head('GET /v1/models HTTP/1.1', [`Authorization: Bearer ${fixture.key}`])],
        gapMs: 500,
        waitMs: 5000,
      });
      clearTimeout(shutdown);
      await closing;
      expect(result.responses.map((response) => response.status)).toEqual([200, 503]);
      expectRawOpenAIError(result.responses[1], {
        status: 503,
        message: 'The gateway is shutting down; retry the request',
        code: 'service_unavailable',
      });
      expect(result.ending).toBe('closed');
    } finally {
      await fixture.upstream.close();
    }
  });
});
