import type { Server } from 'node:http';
import type { LiveSettings } from '../config/live-settings.js';

/**
 * How often Node looks for connections past their headers deadline: the most a slow client gets
 * beyond `client_headers_timeout_s`. Node's default (30 s) would let the setting's lower values
 * barely bite.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/**
 * Keeps the server's `headersTimeout` equal to the live `client_headers_timeout_s`: a connection
 * whose request headers are not complete in time gets the 408 and is closed. Node reads the
 * property on every check, so a change applies to connections already open. Returns the function
 * that stops following.
 */
export function followHeadersTimeout(server: Server, settings: LiveSettings): () => void {
  const apply = (seconds: number) => {
    server.headersTimeout = seconds * 1000;
  };
  apply(settings.get().client_headers_timeout_s);
  return settings.onChange((current) => apply(current.client_headers_timeout_s));
}
