import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { ownerIdOf } from './console-identity.js';
import { listUsageLogs } from './logs.js';
import { usageStats } from './stats.js';
import { usageLogDetail } from './usage-log-detail.js';

/** `/api/me/logs` and `/api/me/stats` (admin-api section 8): as the admin routes, over the caller's own records only. */
export function registerMyUsageRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/me/logs', async (request) =>
    listUsageLogs(services, request.query, { userId: ownerIdOf(request) }),
  );
  app.get('/me/logs/:id', async (request) => usageLogDetail(services, request.params, ownerIdOf(request)));
  app.get('/me/stats', async (request) =>
    usageStats(services, request.query, { userId: ownerIdOf(request) }),
  );
}
