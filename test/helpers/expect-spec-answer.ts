import { expect } from 'vitest';
import type { ClientResponse } from './client-request.js';

/** Which error shapes an endpoint may answer with (client-api section 7). */
export type ErrorFamily = 'openai' | 'anthropic';

/**
 * Asserts what any request, however hostile, may get back: the request id header, and either a
 * success (JSON or an event stream) or an error in the spec's shapes. Errors the gateway renders
 * itself are never 5xx, except the spec's 503 for a model without a channel; errors it relays from
 * the upstream keep the upstream's status and body.
 */
export function expectSpecAnswer(response: ClientResponse, family: ErrorFamily = 'openai'): void {
  expect(response.requestId, response.text.slice(0, 300)).toMatch(/^[0-9a-f]{32}$/);
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status >= 200 && response.status < 300) {
    if (contentType.startsWith('text/event-stream')) return;
    expect(contentType).toMatch(/^application\/json/);
    expect(response.body, response.text.slice(0, 300)).toBeDefined();
    return;
  }
  expect(contentType, response.text.slice(0, 300)).toMatch(/^application\/json/);
  const suffix = ` (request id: ${response.requestId})`;
  const body = response.body as Record<string, unknown> | undefined;
  const error = body?.error as Record<string, unknown> | undefined;
  expect(error, response.text.slice(0, 300)).toBeTypeOf('object');
  const message = typeof error?.message === 'string' ? error.message : '';
  if (!message.endsWith(suffix)) return; // relayed from the upstream as it came
  if (family === 'anthropic' && body?.type === 'error') {
    expect(Object.keys(body).sort()).toEqual(['error', 'type']);
    expect(Object.keys(error ?? {}).sort()).toEqual(['message', 'type']);
    expect(error?.type).toBeTypeOf('string');
  } else {
    expect(Object.keys(body ?? {})).toEqual(['error']);
    expect(Object.keys(error ?? {}).sort()).toEqual(['code', 'message', 'param', 'type']);
    for (const field of ['type', 'param', 'code']) expect(error?.[field]).toBeTypeOf('string');
  }
  const ownServerError =
    response.status >= 500 && !(response.status === 503 && error?.code === 'model_not_found');
  expect(ownServerError, `a 5xx of the gateway's own: ${response.text.slice(0, 300)}`).toBe(false);
}
