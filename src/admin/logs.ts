import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { parseListQuery, readIntegerParameter, readStringParameter } from './parse-query.js';
import { serializeUsageLog } from './serialize-usage-log.js';

const ANY_ID = { min: 0, max: Number.MAX_SAFE_INTEGER };

/** `GET /api/logs` (admin-api section 2, Usage logs), newest first. */
export function registerLogRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/logs', async (request) => {
    const { query } = request;
    const logs = await services.repositories.usageLogs.list({
      userId: readIntegerParameter(query, 'user_id', ANY_ID),
      keyId: readIntegerParameter(query, 'key_id', ANY_ID),
      model: readStringParameter(query, 'model'),
      ...parseListQuery(query),
    });
    return { data: logs.map(serializeUsageLog) };
  });
}
