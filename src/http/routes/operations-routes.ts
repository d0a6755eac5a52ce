import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../errors/gateway-error.js';
import type { GatewayServices } from '../../services.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route still answers once shutdown began (health checks); every other gets 503. */
    answersWhileClosing?: boolean;
  }
}

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * What operators and load balancers call (admin-api section 9): liveness, readiness and the
 * Prometheus metrics. Probes log at `debug`, so they do not fill the access log.
 */
export function registerOperationsRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { telemetry } = services;
  const probe = { config: { accessLog: 'debug' as const, answersWhileClosing: true } };

  app.get('/healthz', probe, async function answerLiveness(_request, reply) {
    return reply.code(200).send({ status: 'ok' });
  });

  app.get('/readyz', probe, async function answerReadiness(_request, reply) {
    const report = await telemetry.readiness.check();
    if (report.ready) return reply.code(200).send({ status: 'ready', checks: report.checks });
    return reply.code(503).send({
      status: report.shuttingDown ? 'shutting_down' : 'not_ready',
      failing: report.failing,
      checks: report.checks,
    });
  });

  app.get('/metrics', { config: { accessLog: 'debug' } }, async function answerMetrics(request, reply) {
    if (!telemetry.metricsPublic && !services.adminAuth.verify(bearerToken(request)))
      throw new GatewayError('admin_unauthorized');
    const { contentType, body } = await telemetry.exposeMetrics();
    return reply.code(200).header('content-type', contentType).send(body);
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
