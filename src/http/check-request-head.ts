import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * The longest request target the gateway reads. No client API path comes close; a longer one is a
 * probe or a mistake, and is refused before routing, logging or key lookups copy it around.
 */
export const MAX_URL_BYTES = 8192;

/**
 * What refuses a request on its head alone, before routing: a request target past
 * `MAX_URL_BYTES` (414), an HTTP/1.1 request without `Host` (400, RFC 9112 section 3.2), and any
 * request once the gateway is shutting down (503, so the client retries elsewhere). Node and
 * Fastify would answer the last two themselves, without the request id or the error shape.
 */
export function checkRequestHead(
  request: IncomingMessage,
  state: { closing: boolean },
): GatewayError | undefined {
  if ((request.url ?? '').length > MAX_URL_BYTES) {
    return new GatewayError('request_uri_too_long', { limit: MAX_URL_BYTES });
  }
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    return new GatewayError(
      'bad_request',
      { detail: 'missing Host header' },
      { headers: { connection: 'close' } },
    );
  }
  if (state.closing) return new GatewayError('shutting_down', {}, { headers: { connection: 'close' } });
  return undefined;
}
