import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { IpAllowList } from '../auth/ip-allow-list.js';

/**
 * Whether the client reached the gateway over HTTPS: the socket itself is TLS, or the peer is a
 * trusted proxy (setting `trusted_proxies`) whose `X-Forwarded-Proto` says `https`. The first value
 * of the header is the scheme of the hop nearest the client. Nobody else can make the gateway
 * believe a forwarded scheme, just as with `X-Forwarded-For` (see client-ip.ts).
 */
export function isHttpsRequest(options: {
  socketEncrypted: boolean;
  socketAddress: string | undefined;
  forwardedProto: string | string[] | undefined;
  trustedProxies: IpAllowList | undefined;
}): boolean {
  if (options.socketEncrypted) return true;
  const { trustedProxies, forwardedProto } = options;
  if (!trustedProxies || forwardedProto === undefined) return false;
  const peer = options.socketAddress ?? '';
  const address = peer.startsWith('::ffff:') && peer.includes('.') ? peer.slice(7) : peer;
  if (!trustedProxies.contains(address)) return false;
  const header = Array.isArray(forwardedProto) ? forwardedProto.join(',') : forwardedProto;
  return header.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** `isHttpsRequest` over the current `trusted_proxies`, whose parsed list is kept until the setting changes. */
export function httpsDetector(trustedProxies: () => readonly string[]) {
  let parsed: { source: readonly string[]; list: IpAllowList | undefined } = { source: [], list: undefined };
  return function cameOverHttps(request: IncomingMessage): boolean {
    const source = trustedProxies();
    if (source !== parsed.source) {
      parsed = { source, list: source.length > 0 ? new IpAllowList(source) : undefined };
    }
    return isHttpsRequest({
      socketEncrypted: (request.socket as Partial<TLSSocket>).encrypted === true,
      socketAddress: request.socket.remoteAddress,
      forwardedProto: request.headers['x-forwarded-proto'],
      trustedProxies: parsed.list,
    });
  };
}
