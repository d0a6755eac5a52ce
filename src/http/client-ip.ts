import type { IpAllowList } from '../auth/ip-allow-list.js';

/**
 * The client's address: the socket peer, unless that peer is a trusted proxy, in which case
 * `X-Forwarded-For` is read from the right, skipping trusted proxies, to the first address
 * that is not one. Nobody else can make the gateway believe a forwarded address.
 */
export function resolveClientIp(options: {
  socketAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustedProxies: IpAllowList | undefined;
}): string {
  const peer = stripMappedPrefix(options.socketAddress ?? '');
  const { trustedProxies } = options;
  if (!trustedProxies || !options.forwardedFor || !trustedProxies.contains(peer)) return peer;
  const chain = (Array.isArray(options.forwardedFor) ? options.forwardedFor.join(',') : options.forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let index = chain.length - 1; index >= 0; index -= 1) {
    const hop = stripMappedPrefix(chain[index] ?? '');
    if (!trustedProxies.contains(hop)) return hop;
  }
  return chain.length > 0 ? stripMappedPrefix(chain[0] ?? peer) : peer;
}

function stripMappedPrefix(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
