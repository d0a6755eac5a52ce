import type { IncomingMessage } from 'node:http';
import { extractKey, type KeySources } from '../../auth/extract-key.js';

/** The path of the Realtime API's WebSocket (admin-api section 14). */
export const REALTIME_PATH = '/v1/realtime';
/**
 * Browsers cannot set `Authorization` on a WebSocket: they send the key as this subprotocol, beside
 * `realtime` (https://platform.openai.com/docs/guides/realtime-websocket).
 */
const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';
/** `Authorization` only, as on every other `/v1` path of family A (client-api section 5). */
const BEARER_ONLY: KeySources = { xApiKey: false, googleKey: false };
/** The subprotocol the server echoes when the client offers it, as OpenAI does; never the key's. */
export const REALTIME_PROTOCOL = 'realtime';

/** What the gateway reads of a WebSocket upgrade request. */
export interface UpgradeRequest {
  method: string;
  path: string;
  /** The `model` query member as sent; undefined when absent. */
  model: string | undefined;
  /** The key from `Authorization` (`Bearer` optional), else from the key subprotocol. */
  rawKey: string | undefined;
  /** Headers of the client's that travel upstream (`OpenAI-Beta` picks the API's shape). */
  forwardedHeaders: Record<string, string>;
}

export function readUpgradeRequest(request: IncomingMessage): UpgradeRequest {
  const url = new URL(request.url ?? '/', 'http://gateway.invalid');
  const beta = request.headers['openai-beta'];
  return {
    method: request.method ?? 'GET',
    path: url.pathname,
    model: url.searchParams.get('model') ?? undefined,
    rawKey: extractKey({ headers: request.headers, query: undefined }, BEARER_ONLY) ?? protocolKey(request),
    forwardedHeaders: typeof beta === 'string' ? { 'openai-beta': beta } : {},
  };
}

/** The subprotocols offered, in order (RFC 6455 section 4.1: a comma-separated list of tokens). */
export function offeredProtocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol'];
  if (header === undefined) return [];
  return header
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol !== '');
}

function protocolKey(request: IncomingMessage): string | undefined {
  const offered = offeredProtocols(request).find((protocol) => protocol.startsWith(KEY_PROTOCOL_PREFIX));
  return offered === undefined ? undefined : offered.slice(KEY_PROTOCOL_PREFIX.length) || undefined;
}

/**
 * Whether the request is a WebSocket opening handshake `ws` will complete (RFC 6455 section 4.2.1),
 * checked before anything is reserved or dialled: a malformed one never costs an upstream connection.
 */
export function isWebSocketHandshake(request: IncomingMessage): boolean {
  const { headers } = request;
  const version = headers['sec-websocket-version'];
  return (
    request.method === 'GET' &&
    headers.upgrade?.toLowerCase() === 'websocket' &&
    /^[+/0-9A-Za-z]{22}==$/.test(headers['sec-websocket-key'] ?? '') &&
    (version === '13' || version === '8')
  );
}
