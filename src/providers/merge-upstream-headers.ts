/**
 * Header names that carry credentials or that the HTTP client sets itself. Forwarded extras never
 * set them: the only credential an upstream sees is the channel's key.
 */
const reservedHeaders = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'proxy-authorization',
  'cookie',
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
]);

/** Defaults, then forwarded extras (minus reserved names), then credentials; names lower-cased. */
export function mergeUpstreamHeaders(parts: {
  defaults: Readonly<Record<string, string>>;
  extra: Readonly<Record<string, string>> | undefined;
  credentials: Readonly<Record<string, string>>;
}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parts.defaults)) headers[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(parts.extra ?? {})) {
    const lower = name.toLowerCase();
    if (!reservedHeaders.has(lower)) headers[lower] = value;
  }
  for (const [name, value] of Object.entries(parts.credentials)) headers[name.toLowerCase()] = value;
  return headers;
}
