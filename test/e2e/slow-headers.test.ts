import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRawOpenAIError } from '../helpers/expect-raw-error.js';
import { rawExchange } from '../helpers/raw-http.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * `client_headers_timeout_s`: a connection whose request headers do not arrive in time gets the 408
 * and is closed; the setting applies at run time, and bodies stay free of any deadline.
 */

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});

afterAll(async () => {
  await gw?.close();
});

const setHeadersTimeout = async (seconds: number) => {
  const response = await gw.admin('PATCH', '/settings', { client_headers_timeout_s: seconds });
  expect(response.status).toBe(200);
};

/** A request head sent one piece every `gapMs`. */
const dribble = (head: string, gapMs: number, waitMs = 4000) =>
  rawExchange(gw.origin, { pieces: head.match(/.{1,4}/gs) ?? [], gapMs, waitMs });

const slowHead = 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'z'.repeat(60) + '\r\n\r\n';

describe('slow request headers', () => {
  it('follows the setting changed through the management API', async () => {
    const seen: number[] = [];
    const stop = gw.gateway.services.settings.onChange((settings) =>
      seen.push(settings.client_headers_timeout_s),
    );
    await setHeadersTimeout(7);
    stop();
    await setHeadersTimeout(1);
    expect(seen[0]).toBe(7);
    expect(seen.every((seconds) => seconds === 7)).toBe(true);
    expect(gw.gateway.app.server.headersTimeout).toBe(1000);
  });

  it('answers headers dribbled past the deadline with 408, then closes the socket', async () => {
    await setHeadersTimeout(1);
    // Twenty pieces 150 ms apart: three seconds for a head that has one.
    const result = await dribble(slowHead, 150);
    expect(result.responses, result.text).toHaveLength(1);
    expectRawOpenAIError(result.responses[0], {
      status: 408,
      message: 'Request headers not received within 1 seconds (client_headers_timeout_s)',
      code: 'request_timeout',
    });
    expect(result.ending).toBe('closed');
    // The deadline plus at most one check interval, with room for a busy machine.
    expect(result.elapsedMs).toBeGreaterThan(900);
    expect(result.elapsedMs).toBeLessThan(3500);
  });

  it('answers a connection that sends nothing with the same 408', async () => {
    await setHeadersTimeout(1);
    const result = await rawExchange(gw.origin, { pieces: [], waitMs: 4000 });
    expectRawOpenAIError(result.responses[0], {
      status: 408,
      message: 'Request headers not received within 1 seconds (client_headers_timeout_s)',
      code: 'request_timeout',
    });
    expect(result.ending).toBe('closed');
  });

  it('leaves an idle keep-alive connection alone between requests', async () => {
    await setHeadersTimeout(1);
    const request = 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    // The second request comes after twice the deadline, on the same connection.
    const result = await rawExchange(gw.origin, { pieces: [request, request], gapMs: 2500, waitMs: 500 });
    expect(result.responses.map((response) => response.status)).toEqual([401, 401]);
  });

  it('lets the same dribble through once the setting is raised again', async () => {
    await setHeadersTimeout(30);
    const result = await dribble(slowHead, 100, 1000);
    expect(result.responses[0]?.status).toBe(401);
    expect(result.responses[0]?.headers['x-gateway-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('puts no deadline on a body that arrives slowly after complete headers', async () => {
    await setHeadersTimeout(1);
    const body = JSON.stringify({ retry_times: 2 });
    const head = [
      'PATCH /api/settings HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${TEST_ADMIN_TOKEN}`,
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    // Headers at once, then the body over about two and a half seconds.
    const result = await rawExchange(gw.origin, {
      pieces: [head, ...(body.match(/.{1,1}/gs) ?? [])],
      gapMs: 150,
      waitMs: 2000,
    });
    expect(result.responses[0]?.status, result.text).toBe(200);
    expect(JSON.parse(result.responses[0]?.body ?? '{}')).toMatchObject({
      retry_times: 2,
      client_headers_timeout_s: 1,
    });
  });
});
