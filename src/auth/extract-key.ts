/**
 * Where each route group accepts a key (client-api section 5). A key in a place the route
 * does not accept is not read at all, so it counts as no key.
 */
export interface KeySources {
  /** `x-api-key`: paths containing `/v1/messages` or `/v1/models`. */
  xApiKey: boolean;
  /** `x-goog-api-key` header and `key` query parameter: `/v1/models`, `/v1beta/models`, `/v1beta/openai/models`. */
  googleKey: boolean;
}

export interface KeyCarrier {
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
}

const BEARER = /^bearer\s+/i;

export function extractKey(request: KeyCarrier, sources: KeySources): string | undefined {
  const authorization = header(request, 'authorization');
  if (authorization) return authorization.replace(BEARER, '').trim() || undefined;
  if (sources.xApiKey) {
    const key = header(request, 'x-api-key');
    if (key) return key.trim();
  }
  if (sources.googleKey) {
    const key = header(request, 'x-goog-api-key') ?? queryKey(request.query);
    if (key) return key.trim();
  }
  return undefined;
}

function header(request: KeyCarrier, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function queryKey(query: unknown): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const value = (query as Record<string, unknown>).key;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
