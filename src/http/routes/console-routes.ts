import type { FastifyInstance, FastifyReply } from 'fastify';
import { ConsoleAssets } from '../console/console-assets.js';
import { CONSOLE_ASSET_HEADERS, CONSOLE_PAGE_HEADERS } from '../console/console-headers.js';

/** `GET /assets/*`: the console's hashed files, cached for a year by browsers and proxies. */
export function registerConsoleRoutes(app: FastifyInstance, options: { directory: string }): void {
  const assets = new ConsoleAssets(options.directory);
  app.get('/assets/*', async function serveConsoleAsset(request, reply) {
    const name = (request.params as { '*'?: string })['*'] ?? '';
    const asset = await assets.find(name, request.headers['accept-encoding']);
    if (!asset) {
      return reply
        .code(404)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Not found');
    }
    reply.headers(CONSOLE_ASSET_HEADERS).type(asset.contentType);
    if (asset.negotiated) reply.header('vary', 'accept-encoding');
    if (asset.encoding !== 'identity') reply.header('content-encoding', asset.encoding);
    return reply.send(asset.body);
  });
}

/** The console's entry page, answered for every path outside the APIs. */
export function sendConsolePage(reply: FastifyReply, page: string): FastifyReply {
  return reply.code(200).headers(CONSOLE_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);
}
