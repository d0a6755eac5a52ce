const versionSegments = ['/v1', '/v1beta'];

/**
 * Appends a vendor path (which starts with its version, like `/v1/messages`) to a channel's base
 * URL. The base URL is an origin, maybe with a path prefix; a trailing `/`, `/v1` or `/v1beta` is
 * tolerated and never doubled (admin-api section 2, Channels).
 */
export function joinUpstreamUrl(baseUrl: string, path: string): string {
  let root = trimTrailingSlashes(baseUrl.trim());
  const lower = root.toLowerCase();
  const version = versionSegments.find((segment) => lower.endsWith(segment));
  if (version) root = trimTrailingSlashes(root.slice(0, -version.length));
  return root + path;
}

function trimTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === '/') end -= 1;
  return value.slice(0, end);
}
