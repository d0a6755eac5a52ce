import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import type { UsageLogConditions } from '../store/usage-log-conditions.js';
import { registerLogExportRoute } from './export-logs.js';
import { parseListQuery } from './parse-query.js';
import { parseUsageConditions } from './parse-usage-query.js';
import { serializeUsageLog } from './serialize-usage-log.js';
import { serializeUsageTotals } from './serialize-usage-stats.js';
import { usageLogDetail } from './usage-log-detail.js';

/**
 * `GET /api/logs` (admin-api section 2, Usage logs), newest first, filtered by `user_id`, `key_id`,
 * `channel_id`, `model`, `status` and `from`..`to`, with `total` over every matching record;
 * `GET /api/logs/export`, the same records oldest first as one download, and `GET /api/logs/{id}`,
 * one record with its stored bodies (admin-api section 12).
 */
export function registerLogRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/logs', async (request) => listUsageLogs(services, request.query, {}));
  registerLogExportRoute(app, services);
  app.get('/logs/:id', async (request) => usageLogDetail(services, request.params, undefined));
}

/** A page of usage records and the totals of all that match; `forced` conditions win over the query's. */
export async function listUsageLogs(services: GatewayServices, query: unknown, forced: UsageLogConditions) {
  const { usageLogs } = services.repositories;
  const conditions = { ...parseUsageConditions(query), ...forced };
  const page = parseListQuery(query);
  const [logs, totals] = await Promise.all([
    usageLogs.list({ ...conditions, ...page }),
    usageLogs.totals(conditions),
  ]);
  return { data: logs.map(serializeUsageLog), total: serializeUsageTotals(totals) };
}
