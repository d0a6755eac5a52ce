import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { unixNow } from '../store/json-column.js';
import { notFound } from './admin-error.js';
import { parseIdParam } from './parse-id-param.js';
import { parseTimeWindow } from './parse-usage-query.js';
import { serializeHealthSummary } from './serialize-usage-stats.js';

/**
 * `GET /api/channels/{id}/stats?from=&to=`: the channel's success rate and latency over a window
 * (default the last 24 hours), in all and per model, from its usage records.
 */
export function registerChannelStatsRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { channels, usageStats } = services.repositories;

  app.get('/channels/:id/stats', async (request) => {
    const id = parseIdParam(request.params, 'channel');
    if (!(await channels.find(id))) throw notFound('channel', id);
    const window = parseTimeWindow(request.query, unixNow());
    const conditions = { channelId: id, ...window };
    const models = await usageStats.models(conditions);
    const perModel = await Promise.all(
      models.map(async (model) => ({
        model,
        ...serializeHealthSummary(await usageStats.healthSummary({ ...conditions, model })),
      })),
    );
    return {
      channel_id: id,
      from: window.from,
      to: window.to,
      ...serializeHealthSummary(await usageStats.healthSummary(conditions)),
      models: perModel,
    };
  });
}
