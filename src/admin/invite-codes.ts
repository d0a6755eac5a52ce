import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { newSecretCode } from '../auth/secret-code.js';
import type { GatewayServices } from '../services.js';
import { unixNow } from '../store/json-column.js';
import { notFound } from './admin-error.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import { serializeInviteCode } from './serialize-invite-code.js';

/** Codes are made in batches of at most this many. */
export const MAX_CODES_PER_BATCH = 1000;

const INVITE_PREFIX = 'inv_';

const createInviteCodesSchema = z.strictObject({
  count: z.number().int().min(1).max(MAX_CODES_PER_BATCH).default(1),
});

/**
 * `/api/invite-codes` (admin-api section 15): single-use codes to register with while
 * `registration` is `invite`. The codes are shown once, in the answer that creates them.
 */
export function registerInviteCodeRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { inviteCodes } = services.repositories;

  app.post('/invite-codes', async (request, reply) => {
    const { count } = parseBody(request.body, createInviteCodesSchema);
    const made = Array.from({ length: count }, () => newSecretCode(INVITE_PREFIX));
    const stored = await inviteCodes.createMany(made, unixNow());
    const data = stored.map((invite, index) => serializeInviteCode(invite, made[index]?.code));
    return reply.code(201).send({ data });
  });

  app.get('/invite-codes', async (request) => ({
    data: (await inviteCodes.list(parseListQuery(request.query))).map((invite) =>
      serializeInviteCode(invite),
    ),
  }));

  app.delete('/invite-codes/:id', async (request) => {
    const id = parseIdParam(request.params, 'invite code');
    const deleted = await inviteCodes.delete(id);
    if (!deleted) throw notFound('invite code', id);
    return serializeInviteCode(deleted);
  });
}
