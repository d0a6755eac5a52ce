import { ApiError } from '../api/api-error';
import { parseJson } from '../api/parse-json';

/**
 * A call of the gateway's own client API (`/v1/...`) with an API key, exactly as any client makes
 * it: the key decides the limits and the billing. The console's session cookie is not sent.
 */
export function relayFetch(
  path: string,
  options: { key: string; body?: unknown; signal?: AbortSignal },
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers,
    credentials: 'omit',
    body: options.body === undefined ? null : JSON.stringify(options.body),
    signal: options.signal ?? null,
  });
}

/** A refused relay call as an error with the gateway's message and code (`{"error":{...}}`, client-api family A). */
export async function relayError(response: Response): Promise<ApiError> {
  const parsed = parseJson(await response.text());
  return toRelayError({ status: response.status, body: parsed.ok ? parsed.value : undefined });
}

/** The error object of a relay answer or stream frame, or a plain HTTP status line without one. */
export function toRelayError(options: { status: number; body: unknown }): ApiError {
  const error = isRecord(options.body) ? options.body['error'] : undefined;
  const message = isRecord(error) && typeof error['message'] === 'string' ? error['message'] : undefined;
  const code = isRecord(error) && typeof error['code'] === 'string' ? error['code'] : undefined;
  return new ApiError({ status: options.status, code, message: message ?? `HTTP ${options.status}` });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
