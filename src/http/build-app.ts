import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerAdminRoutes } from '../admin/register-admin-routes.js';
import { IpAllowList } from '../auth/ip-allow-list.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayServices } from '../services.js';
import { logEachRequest } from './access-log-hook.js';
import { createClientErrorHandler } from './answer-client-error.js';
import { checkRequestHead, MAX_URL_BYTES } from './check-request-head.js';
import { resolveClientIp } from './client-ip.js';
import { CONSOLE_DIRECTORY } from './console/console-directory.js';
import { ConsolePageSource } from './console/console-page-source.js';
import { CONNECTIONS_CHECKING_INTERVAL_MS, followHeadersTimeout } from './follow-headers-timeout.js';
import { negotiateLanguage } from './negotiate-language.js';
import { readBody } from './read-body.js';
import { renderError, toGatewayError } from './render-error.js';
import { nextRequestId, REQUEST_ID_HEADER } from './request-id.js';
import './request-context.js';
import { registerConsoleRoutes, sendConsolePage } from './routes/console-routes.js';
import { registerModelListRoutes } from './routes/model-list-routes.js';
import { registerOperationsRoutes } from './routes/operations-routes.js';
import { registerAudioUploadRoutes } from './routes/audio-upload-routes.js';
import { registerRelayRoutes } from './routes/relay-routes.js';
import { registerUnsupportedRoutes } from './routes/unsupported-routes.js';

export { REQUEST_ID_HEADER };

const API_PREFIXES = ['/v1/', '/v1beta/', '/api/'];
const API_ROOTS = new Set(['/v1', '/v1beta', '/api']);

export interface AppOptions {
  services: GatewayServices;
  /** Receives errors the gateway did not expect, for the log. */
  onUnexpectedError?: (error: unknown, request: FastifyRequest) => void;
}

/** The whole HTTP surface. The only module, with its route files, that knows the web framework. */
export function buildApp(options: AppOptions): FastifyInstance {
  const { services } = options;
  const app = Fastify({
    logger: false,
    genReqId: nextRequestId,
    // Requests that arrive while closing get the 503 of `checkRequestHead`, in the error shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    http: {
      // Request headers have a deadline (`client_headers_timeout_s`, followed below); a whole
      // request has none, since uploads of the body limit's size may take long.
      headersTimeout: services.settings.get().client_headers_timeout_s * 1000,
      requestTimeout: 0,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      // Checked in `checkRequestHead`, so the 400 carries the request id and the error shape.
      requireHostHeader: false,
    },
    clientErrorHandler: createClientErrorHandler({
      headersTimeoutSeconds: () => services.settings.get().client_headers_timeout_s,
    }),
    // A path the router cannot decode (`/v1/models%zz`) is answered like any unknown path, before
    // any hook ran: the request id header is set here.
    frameworkErrors: function answerUndecodablePath(error, request, reply) {
      reply.header(REQUEST_ID_HEADER, request.id);
      if (request.url.length > MAX_URL_BYTES) {
        return sendError(new GatewayError('request_uri_too_long', { limit: MAX_URL_BYTES }), request, reply);
      }
      if (error.code === 'FST_ERR_BAD_URL') return answerUnknownPath(request, reply);
      return sendError(error, request, reply);
    },
  });
  const stopFollowingHeadersTimeout = followHeadersTimeout(app.server, services.settings);
  app.addHook('onClose', async function stopFollowingSettings() {
    stopFollowingHeadersTimeout();
  });
  // An `Expect` other than 100-continue: RFC 9110 section 10.1.1 lets the server ignore it. Node's
  // own answer would be a bare 417 without the request id.
  app.server.on('checkExpectation', function serveDespiteExpectation(request, response) {
    app.server.emit('request', request, response);
  });
  const lifecycle = { closing: false };
  app.addHook('preClose', async function refuseNewRequests() {
    lifecycle.closing = true;
    services.telemetry.readiness.beginShutdown();
  });

  let trustedProxies: { source: readonly string[]; list: IpAllowList | undefined } = {
    source: [],
    list: undefined,
  };
  const trustedProxyList = (): IpAllowList | undefined => {
    const source = services.settings.get().trusted_proxies;
    if (source !== trustedProxies.source) {
      trustedProxies = { source, list: source.length > 0 ? new IpAllowList(source) : undefined };
    }
    return trustedProxies.list;
  };

  app.decorateRequest('gateway', undefined as never);

  app.addHook('onRequest', logEachRequest(services.logger));

  // A callback hook, not an async one: no promise and no extra turn per request. A throw here
  // reaches the error handler as a rejection would.
  app.addHook('onRequest', function createRequestContext(request, reply, done) {
    reply.header(REQUEST_ID_HEADER, request.id);
    const language = request.headers['accept-language'];
    request.gateway = {
      requestId: request.id,
      clientIp: resolveClientIp({
        socketAddress: request.socket.remoteAddress,
        forwardedFor: request.headers['x-forwarded-for'],
        trustedProxies: trustedProxyList(),
      }),
      language: negotiateLanguage(Array.isArray(language) ? language[0] : language),
      errorShape: 'openai',
      principal: undefined,
      startedAt: performance.now(),
    };
    // After the context, so these errors are rendered like every other one.
    const closing = lifecycle.closing && !request.routeOptions.config.answersWhileClosing;
    const refusal = checkRequestHead(request.raw, { closing });
    if (refusal) throw refusal;
    done();
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', function readRequestBody(_request: FastifyRequest, payload: IncomingMessage) {
    return readBody(payload, services.settings.get().body_limit_bytes);
  });

  const sendError = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const gatewayError = toGatewayError(error);
    if (gatewayError.errorName === 'internal_error') options.onUnexpectedError?.(error, request);
    const context = request.gateway ?? fallbackContext(request);
    const rendered = renderError(gatewayError, context);
    return reply.code(rendered.status).headers(rendered.headers).send(rendered.body);
  };
  app.setErrorHandler(function renderGatewayError(error, request, reply) {
    return sendError(error, request, reply);
  });

  const consolePage = new ConsolePageSource(CONSOLE_DIRECTORY);
  const answerUnknownPath = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (API_ROOTS.has(path) || API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return sendError(new GatewayError('invalid_url', { method: request.method, path }), request, reply);
    }
    return sendConsolePage(reply, consolePage.current());
  };
  app.setNotFoundHandler(function answerNotFound(request, reply) {
    return answerUnknownPath(request, reply);
  });

  registerOperationsRoutes(app, services);
  registerModelListRoutes(app, services);
  registerRelayRoutes(app, services);
  registerAudioUploadRoutes(app, services);
  registerUnsupportedRoutes(app, services);
  registerConsoleRoutes(app, { directory: CONSOLE_DIRECTORY });
  app.register(async (admin) => registerAdminRoutes(admin, services), { prefix: '/api' });
  return app;
}

function fallbackContext(request: FastifyRequest) {
  return {
    requestId: request.id,
    clientIp: '',
    language: 'en' as const,
    errorShape: 'openai' as const,
    principal: undefined,
    startedAt: performance.now(),
  };
}
