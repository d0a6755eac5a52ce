import type { IncomingMessage } from 'node:http';
import { IpAllowList } from '../../auth/ip-allow-list.js';
import type { LiveSettings } from '../../config/live-settings.js';
import { resolveClientIp } from '../client-ip.js';
import { negotiateLanguage } from '../negotiate-language.js';
import type { RequestContext } from '../request-context.js';
import { nextRequestId } from '../request-id.js';

/**
 * The context of an upgrade request, made as the HTTP app makes it for every request: a request id,
 * the client's address (`X-Forwarded-For` believed only from `trusted_proxies`), the language of
 * `Accept-Language`, family A errors.
 */
export function upgradeContextFactory(settings: LiveSettings): (request: IncomingMessage) => RequestContext {
  let trusted: { source: readonly string[]; list: IpAllowList | undefined } = { source: [], list: undefined };
  const trustedProxies = () => {
    const source = settings.get().trusted_proxies;
    if (source !== trusted.source)
      trusted = { source, list: source.length > 0 ? new IpAllowList(source) : undefined };
    return trusted.list;
  };
  return function upgradeContext(request) {
    const language = request.headers['accept-language'];
    return {
      requestId: nextRequestId(),
      clientIp: resolveClientIp({
        socketAddress: request.socket.remoteAddress,
        forwardedFor: request.headers['x-forwarded-for'],
        trustedProxies: trustedProxies(),
      }),
      language: negotiateLanguage(Array.isArray(language) ? language[0] : language),
      errorShape: 'openai',
      principal: undefined,
      startedAt: performance.now(),
    };
  };
}
