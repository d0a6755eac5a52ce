import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayServices } from '../services.js';
import type { UserRecord } from '../store/users-repository.js';
import { notFound } from './admin-error.js';
import { accountOf, ownerIdOf } from './console-identity.js';
import { createKeyFor, keyChangesFrom } from './key-commands.js';
import { createKeySchema, KEY_READ_ONLY_FIELDS, updateKeySchema } from './key-schemas.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import { serializeKey } from './serialize-key.js';

const createOwnKeySchema = createKeySchema.omit({ user_id: true });
/**
 * Whether a key's bodies are stored is the operator's choice (storage, privacy): its owner sees
 * it but cannot change it.
 */
const OWN_KEY_READ_ONLY_FIELDS = [...KEY_READ_ONLY_FIELDS, 'user_id', 'log_bodies'];

/**
 * A key's group picks its channels and price ratio; a user may name only their own, so no user
 * moves their spending into a group an admin did not give them.
 */
function checkOwnGroup(group: string | null | undefined, owner: UserRecord): void {
  if (group === undefined || group === null || group === owner.group) return;
  throw new GatewayError('key_group_forbidden', { group: owner.group });
}

/**
 * `/api/me/keys` (admin-api section 8): the caller's own keys, with every attribute of section 2
 * but `user_id` (and `log_bodies`, shown but not written). Another user's key id answers 404, exactly as an id that does not exist.
 */
export function registerMyKeyRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { keys } = services.repositories;
  const findOwnKey = async (request: FastifyRequest) => {
    const id = parseIdParam(request.params, 'key');
    const key = await keys.find(id);
    if (!key || key.userId !== ownerIdOf(request)) throw notFound('key', id);
    return key;
  };

  app.get('/me/keys', async (request) => {
    const rows = await keys.list({ ...parseListQuery(request.query), userId: ownerIdOf(request) });
    return { data: rows.map((key) => serializeKey(key)) };
  });

  app.get('/me/keys/:id', async (request) => serializeKey(await findOwnKey(request)));

  app.post('/me/keys', async (request, reply) => {
    const owner = accountOf(request);
    const attributes = parseBody(request.body, createOwnKeySchema, { readOnly: OWN_KEY_READ_ONLY_FIELDS });
    checkOwnGroup(attributes.group, owner);
    const { record, fullKey } = await createKeyFor(services, owner.id, attributes);
    return reply.code(201).send(serializeKey(record, fullKey));
  });

  app.patch('/me/keys/:id', async (request) => {
    const owner = accountOf(request);
    const id = (await findOwnKey(request)).id;
    const body = parseBody(request.body, updateKeySchema, { readOnly: OWN_KEY_READ_ONLY_FIELDS });
    checkOwnGroup(body.group, owner);
    const key = await keys.update(id, keyChangesFrom(body));
    if (!key) throw notFound('key', id);
    await services.changes.publish('keys');
    return serializeKey(key);
  });

  app.delete('/me/keys/:id', async (request) => {
    accountOf(request);
    const key = await keys.delete((await findOwnKey(request)).id);
    if (!key) throw notFound('key', parseIdParam(request.params, 'key'));
    await services.changes.publish('keys');
    return serializeKey(key);
  });
}
