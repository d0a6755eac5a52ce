import type { FastifyRequest } from 'fastify';
import { invalidRequest } from './admin-error.js';

/**
 * The console's origin as the caller reached it: the scheme the gateway tells from the socket and
 * trusted proxies (request-scheme.ts), and the `Host` header. Pages the gateway hands to other sites
 * (Stripe's return links) lead back there.
 */
export function consoleOriginOf(
  request: FastifyRequest,
  cameOverHttps: (raw: FastifyRequest['raw']) => boolean,
): string {
  const host = request.headers.host;
  const scheme = cameOverHttps(request.raw) ? 'https' : 'http';
  const candidate = `${scheme}://${host ?? ''}`;
  if (!host || !URL.canParse(candidate))
    throw invalidRequest('the request has no usable Host header to return to');
  const url = new URL(candidate);
  if (url.pathname !== '/' || url.search !== '' || url.username !== '' || url.password !== '')
    throw invalidRequest('the request has no usable Host header to return to');
  return url.origin;
}
