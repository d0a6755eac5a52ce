import { expect } from 'vitest';
import type { RawResponse } from './raw-http.js';

/**
 * Asserts an error the HTTP layer wrote by itself, read off a raw socket: the family A body with
 * the request id of its `X-Gateway-Request-Id` header, JSON content type, and `Connection: close`
 * unless `keepAlive` says the connection stays open.
 */
export function expectRawOpenAIError(
  response: RawResponse | undefined,
  expected: { status: number; message: string; code: string; keepAlive?: boolean },
): void {
  expect(response).toBeDefined();
  if (!response) return;
  const requestId = response.headers['x-gateway-request-id'] ?? '';
  expect(requestId).toMatch(/^[0-9a-f]{32}$/);
  expect({ status: response.status, body: JSON.parse(response.body) as unknown }).toEqual({
    status: expected.status,
    body: {
      error: {
        message: `${expected.message} (request id: ${requestId})`,
        type: 'gateway_api_error',
        param: '',
        code: expected.code,
      },
    },
  });
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  if (!expected.keepAlive) expect(response.headers.connection).toBe('close');
}
