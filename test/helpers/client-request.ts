import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';

/** What a client saw: status, headers, raw text and the parsed body when it is JSON. */
export interface ClientResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  /** The `X-Gateway-Request-Id` header. */
  requestId: string;
}

export interface ClientRequest {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or a Buffer as is (with `content-type: application/json` unless given). */
  body?: unknown;
}

/** One request to the gateway with the platform's `fetch`, as a client library would send it. */
export async function send(
  origin: string,
  path: string,
  options: ClientRequest = {},
): Promise<ClientResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    body =
      typeof options.body === 'string' || Buffer.isBuffer(options.body)
        ? options.body
        : JSON.stringify(options.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const response = await fetch(origin + path, { method: options.method ?? 'GET', headers, body });
  return toClientResponse(response.status, response.headers, await response.text());
}

/** A POST whose body goes out in chunks (`Transfer-Encoding: chunked`, no `Content-Length`). */
export function sendChunked(
  origin: string,
  path: string,
  options: { headers: Record<string, string>; chunks: readonly Buffer[] },
): Promise<ClientResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      origin + path,
      { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers } },
      (response) => {
        const received: Buffer[] = [];
        response.on('data', (chunk: Buffer) => received.push(chunk));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve(
            toClientResponse(response.statusCode ?? 0, headers, Buffer.concat(received).toString('utf8')),
          );
        });
        response.on('error', reject);
      },
    );
    // The gateway may answer and close before the whole body is written; only a missing reply fails.
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
    request.flushHeaders();
    for (const chunk of options.chunks) request.write(chunk);
    request.end();
  });
}

function toClientResponse(status: number, headers: Headers, text: string): ClientResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, headers, text, body, requestId: headers.get('x-gateway-request-id') ?? '' };
}

export interface ExpectedError {
  status: number;
  /** The message without its ` (request id: ...)` suffix. */
  message: string;
  code?: string;
  type?: string;
  param?: string;
}

/** Asserts a family A error body in full, the request id suffix matching the response header. */
export function expectOpenAIError(response: ClientResponse, expected: ExpectedError): void {
  expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
  expect({ status: response.status, body: response.body }).toEqual({
    status: expected.status,
    body: {
      error: {
        message: `${expected.message} (request id: ${response.requestId})`,
        type: expected.type ?? 'gateway_api_error',
        param: expected.param ?? '',
        code: expected.code ?? '',
      },
    },
  });
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
}

/** Asserts a family B error body in full (`{"type":"error","error":{"type","message"}}`). */
export function expectAnthropicError(
  response: ClientResponse,
  expected: { status: number; type: string; message: string },
): void {
  expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
  expect({ status: response.status, body: response.body }).toEqual({
    status: expected.status,
    body: {
      type: 'error',
      error: { type: expected.type, message: `${expected.message} (request id: ${response.requestId})` },
    },
  });
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
