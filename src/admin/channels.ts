import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { probeChannel } from '../providers/probe-channel.js';
import type { GatewayServices } from '../services.js';
import type { ChannelChanges } from '../store/channels-repository.js';
import { notFound } from './admin-error.js';
import { CHANNEL_READ_ONLY_FIELDS, createChannelSchema, updateChannelSchema } from './channel-schemas.js';
import { oneWithManaged, ownedByApi, refuseIfManaged, withManaged } from './managed-by-config.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import { serializeChannel } from './serialize-channel.js';
import { validateChannelTransport } from './validate-channel-transport.js';
import { serializeChannelHealth } from './serialize-channel-health.js';

const PROBE_TIMEOUT_MS = 10_000;

type ChannelBody = z.output<typeof updateChannelSchema>;

/** `/api/channels` (admin-api section 2, Channels; section 7 for `/health`). */
export function registerChannelRoutes(app: FastifyInstance, services: GatewayServices): void {
  const channels = services.repositories.channels;
  const findChannel = async (params: unknown) => {
    const id = parseIdParam(params, 'channel');
    const channel = await channels.find(id);
    if (!channel) throw notFound('channel', id);
    return channel;
  };

  app.get('/channels', async (request) => {
    const rows = await channels.list(parseListQuery(request.query));
    return { data: await withManaged(services, 'channels', rows.map(serializeChannel), (row) => row.name) };
  });

  app.get('/channels/:id', async (request) => {
    const channel = await findChannel(request.params);
    return oneWithManaged(services, 'channels', serializeChannel(channel), channel.name);
  });

  app.post('/channels', async (request, reply) => {
    const body = parseBody(request.body, createChannelSchema, { readOnly: CHANNEL_READ_ONLY_FIELDS });
    const { name, type, keys, models, groups, priority, weight, endpoints, status } = body;
    // The file matches its channels by name: a second channel of that name would be ambiguous.
    await refuseIfManaged(services, 'channels', name, 'channel');
    const config = validateChannelTransport({ type, config: body.config, baseUrl: body.base_url, keys });
    const channel = await channels.create({
      name,
      type,
      baseUrl: body.base_url,
      keys,
      models,
      modelMapping: body.model_mapping,
      groups,
      priority,
      weight,
      endpoints,
      status,
      config,
    });
    await services.changes.publish('channels');
    return reply.code(201).send(ownedByApi(serializeChannel(channel)));
  });

  app.patch('/channels/:id', async (request) => {
    const stored = await findChannel(request.params);
    await refuseIfManaged(services, 'channels', stored.name, 'channel');
    const body = parseBody(request.body, updateChannelSchema, { readOnly: CHANNEL_READ_ONLY_FIELDS });
    if (body.name !== undefined) await refuseIfManaged(services, 'channels', body.name, 'channel');
    const changes = toChannelChanges(body);
    // The type's fields are checked as the channel will be: changed ones as given, others as stored.
    if ([body.type, body.config, body.base_url, body.keys].some((field) => field !== undefined))
      changes.config = validateChannelTransport({
        type: body.type ?? stored.type,
        config: body.config ?? stored.config,
        baseUrl: body.base_url === undefined ? stored.baseUrl : body.base_url,
        keys: body.keys ?? stored.keys,
      });
    const id = stored.id;
    const channel = await channels.update(id, changes);
    if (!channel) throw notFound('channel', id);
    await services.changes.publish('channels');
    return ownedByApi(serializeChannel(channel));
  });

  app.delete('/channels/:id', async (request) => {
    const stored = await findChannel(request.params);
    await refuseIfManaged(services, 'channels', stored.name, 'channel');
    const id = stored.id;
    const channel = await channels.delete(id);
    if (!channel) throw notFound('channel', id);
    services.keyRotation.forget(id);
    await services.changes.publish('channels');
    return ownedByApi(serializeChannel(channel));
  });

  app.get('/channels/:id/health', async (request) =>
    serializeChannelHealth(services.health.report(await findChannel(request.params))),
  );

  app.post('/channels/:id/test', async (request) => {
    const channel = await findChannel(request.params);
    const result = await probeChannel(channel, { timeoutMs: PROBE_TIMEOUT_MS });
    return { ok: result.ok, latency_ms: result.latencyMs, error: result.error };
  });
}

function toChannelChanges(body: ChannelBody): ChannelChanges {
  const { name, type, keys, models, groups, priority, weight, endpoints, status } = body;
  return {
    name,
    type,
    baseUrl: body.base_url,
    keys,
    models,
    modelMapping: body.model_mapping,
    groups,
    priority,
    weight,
    endpoints,
    status,
  };
}
