import { ApiError } from './api-error';
import { parseJson, type ParsedJson } from './parse-json';
import { readCookie } from './read-cookie';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;

export interface ApiRequestOptions {
  method?: HttpMethod;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
  signal?: AbortSignal;
}

/** admin-api section 8: a session's state-changing calls repeat the `gw_csrf` cookie in this header. */
export const CSRF_COOKIE = 'gw_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

/** `/users` with `{ limit: 10 }` -> `/api/users?limit=10`; empty values are left out. */
export function apiUrl(path: string, query?: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    search.set(name, String(value));
  }
  const text = search.toString();
  return `/api${path}${text ? `?${text}` : ''}`;
}

/** One call of the management API with the session cookie; JSON in and out, errors as `ApiError`. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  const response = await fetch(apiUrl(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
  const text = await response.text();
  const parsed = parseJson(text);
  if (!response.ok) throw toApiError(response, parsed);
  return (parsed.ok ? parsed.value : undefined) as T;
}

function toApiError(response: Response, parsed: ParsedJson): ApiError {
  const error = parsed.ok && isRecord(parsed.value) ? parsed.value['error'] : undefined;
  const message = isRecord(error) && typeof error['message'] === 'string' ? error['message'] : undefined;
  const code = isRecord(error) && typeof error['code'] === 'string' ? error['code'] : undefined;
  const param = isRecord(error) && typeof error['param'] === 'string' ? error['param'] : undefined;
  return new ApiError({
    status: response.status,
    code,
    param,
    message: message ?? `HTTP ${response.status} ${response.statusText}`.trim(),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
