import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestGateway } from './start-test-gateway.js';

/** A parsed `Set-Cookie` header: name, value and attributes by lower-case name (`true` for flags). */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  const separator = pair.indexOf('=');
  const parsed: SetCookie = {
    name: pair.slice(0, separator),
    value: pair.slice(separator + 1),
    attributes: {},
  };
  for (const attribute of attributes) {
    const equals = attribute.indexOf('=');
    if (equals < 0) parsed.attributes[attribute.toLowerCase()] = true;
    else parsed.attributes[attribute.slice(0, equals).toLowerCase()] = attribute.slice(equals + 1);
  }
  return parsed;
}

export interface ApiResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  cookies: SetCookie[];
}

/** The family A error body every management error has. */
export interface ErrorBody {
  error: { message: string; type: string; param: string; code: string };
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

/** One call to `/api`, with any headers; the body parsed as JSON when there is one. */
export async function callApi<Body = unknown>(
  gw: TestGateway,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<Body>> {
  const response = await fetch(`${gw.origin}/api${path}`, {
    method,
    headers: {
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as Body,
    cookies: response.headers.getSetCookie().map(parseSetCookie),
  };
}

/** Asserts a family A management error with its status and code. */
export function expectApiError(response: ApiResponse, status: number, code: string, field?: string): void {
  expect({ status: response.status, code: (response.body as ErrorBody | undefined)?.error?.code }).toEqual({
    status,
    code,
  });
  const { error } = response.body as ErrorBody;
  expect(error.type).toBe('gateway_api_error');
  if (field !== undefined) {
    expect(error.message).toContain(`"${field}"`);
    expect(error.param).toBe(field.split(/[.[]/)[0]);
  }
}

let addressCounter = 0;
/** Random per test process, so runs sharing one Redis never count each other's attempts. */
const addressPrefix = `fd${randomBytes(5)
  .toString('hex')
  .replace(/(.{2})(.{4})(.{4})/, '$1:$2:$3')}`;

/**
 * A client address of its own for each scenario, sent as `X-Forwarded-For` to a gateway that
 * trusts loopback as a proxy: failed sign-ins of one test never throttle another's.
 */
export function nextClientIp(): string {
  addressCounter += 1;
  return `${addressPrefix}::${addressCounter.toString(16)}`;
}

/** A browser-like console client: keeps the two cookies and sends the CSRF header on writes. */
export class ConsoleClient {
  constructor(
    readonly gw: TestGateway,
    readonly session: string,
    readonly csrf: string,
    readonly clientIp: string,
  ) {}

  /** Sends the cookies; on POST, PUT, PATCH and DELETE also `X-CSRF-Token` unless `csrf` says otherwise. */
  call<Body = unknown>(
    method: string,
    path: string,
    options: CallOptions & { csrf?: string | false } = {},
  ): Promise<ApiResponse<Body>> {
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    const writes = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
    return callApi<Body>(this.gw, method, path, {
      body: options.body,
      headers: {
        cookie: `gw_session=${this.session}; gw_csrf=${this.csrf}`,
        'x-forwarded-for': this.clientIp,
        ...(writes && csrf !== false && { 'x-csrf-token': csrf }),
        ...options.headers,
      },
    });
  }
}

/** Signs in; the response as is, so tests can check failures too. */
export function signIn(
  gw: TestGateway,
  credentials: Record<string, unknown>,
  options: { clientIp?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return callApi(gw, 'POST', '/auth/login', {
    body: credentials,
    headers: { 'x-forwarded-for': options.clientIp ?? nextClientIp(), ...options.headers },
  });
}

/** Signs in and returns a client holding the session; fails the test when sign-in fails. */
export async function signedInClient(
  gw: TestGateway,
  credentials: Record<string, unknown>,
): Promise<ConsoleClient> {
  const clientIp = nextClientIp();
  const response = await signIn(gw, credentials, { clientIp });
  expect(response.status).toBe(200);
  const cookie = (name: string) => response.cookies.find((candidate) => candidate.name === name)?.value ?? '';
  return new ConsoleClient(gw, cookie('gw_session'), cookie('gw_csrf'), clientIp);
}
