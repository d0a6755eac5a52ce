import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { unixNow } from '../store/json-column.js';
import type { UsageLogConditions } from '../store/usage-log-conditions.js';
import { parseStatsQuery } from './parse-usage-query.js';
import { serializeStatsPoint } from './serialize-usage-stats.js';

/**
 * `GET /api/stats` (admin-api section 8): usage per time bucket and group for the console's
 * charts. Takes the filters of `/api/logs` too; buckets without records are left out.
 */
export function registerStatsRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/stats', async (request) => usageStats(services, request.query, {}));
}

/** A usage series; `forced` conditions (the caller's own user) win over the query's. */
export async function usageStats(services: GatewayServices, query: unknown, forced: UsageLogConditions) {
  const parsed = parseStatsQuery(query, unixNow());
  const conditions = { ...parsed.conditions, ...forced };
  const points = await services.repositories.usageStats.series({
    conditions,
    bucket: parsed.bucket,
    groupBy: parsed.groupBy,
  });
  return {
    data: points.map(serializeStatsPoint),
    from: parsed.conditions.from,
    to: parsed.conditions.to,
    bucket: parsed.bucket,
    group_by: parsed.groupBy,
  };
}
