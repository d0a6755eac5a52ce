import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { invalidField, notFound } from './admin-error.js';
import { createKeyFor, keyChangesFrom } from './key-commands.js';
import { createKeySchema, KEY_READ_ONLY_FIELDS, updateKeySchema } from './key-schemas.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery, readIntegerParameter } from './parse-query.js';
import { serializeKey } from './serialize-key.js';

/** `/api/keys` (admin-api section 2, API keys). */
export function registerKeyRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { keys, users } = services.repositories;
  const findKey = async (params: unknown) => {
    const id = parseIdParam(params, 'key');
    const key = await keys.find(id);
    if (!key) throw notFound('key', id);
    return key;
  };

  app.get('/keys', async (request) => {
    const userId = readIntegerParameter(request.query, 'user_id', { min: 0, max: Number.MAX_SAFE_INTEGER });
    const rows = await keys.list({ ...parseListQuery(request.query), userId });
    return { data: rows.map((key) => serializeKey(key)) };
  });

  app.get('/keys/:id', async (request) => serializeKey(await findKey(request.params)));

  app.post('/keys', async (request, reply) => {
    const { user_id: userId, ...attributes } = parseBody(request.body, createKeySchema, {
      readOnly: KEY_READ_ONLY_FIELDS,
    });
    if (!(await users.find(userId))) throw invalidField('user_id', `user ${userId} does not exist`);
    const { record, fullKey } = await createKeyFor(services, userId, attributes);
    return reply.code(201).send(serializeKey(record, fullKey));
  });

  app.patch('/keys/:id', async (request) => {
    const id = (await findKey(request.params)).id;
    const body = parseBody(request.body, updateKeySchema, {
      readOnly: [...KEY_READ_ONLY_FIELDS, 'user_id'],
    });
    const key = await keys.update(id, keyChangesFrom(body));
    if (!key) throw notFound('key', id);
    await services.changes.publish('keys');
    return serializeKey(key);
  });

  app.delete('/keys/:id', async (request) => {
    const id = parseIdParam(request.params, 'key');
    const key = await keys.delete(id);
    if (!key) throw notFound('key', id);
    await services.changes.publish('keys');
    return serializeKey(key);
  });
}
