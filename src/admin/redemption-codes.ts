import type { FastifyInstance } from 'fastify';
import { newSecretCode } from '../auth/secret-code.js';
import type { GatewayServices } from '../services.js';
import { unixNow } from '../store/json-column.js';
import { invalidField, notFound } from './admin-error.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import {
  createRedemptionCodesSchema,
  REDEMPTION_CODE_READ_ONLY_FIELDS,
  updateRedemptionCodeSchema,
} from './redemption-code-schemas.js';
import { serializeRedemptionCode } from './serialize-redemption-code.js';

const REDEMPTION_PREFIX = 'rdm_';

/**
 * `/api/redemption-codes` (admin-api section 15): single-use codes that credit their amount to
 * whoever redeems them (`POST /api/me/redeem`). The codes are shown once, in the answer that
 * creates them; lists show them masked.
 */
export function registerRedemptionCodeRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { redemptionCodes } = services.repositories;

  app.post('/redemption-codes', async (request, reply) => {
    const body = parseBody(request.body, createRedemptionCodesSchema);
    const now = unixNow();
    if (body.expires_at !== null && body.expires_at <= now)
      throw invalidField('expires_at', 'must be in the future');
    const made = Array.from({ length: body.count }, () => newSecretCode(REDEMPTION_PREFIX));
    const stored = await redemptionCodes.createMany(
      made.map((code) => ({
        hash: code.hash,
        hint: code.hint,
        name: body.name,
        amount: body.amount,
        expiresAt: body.expires_at,
      })),
      now,
    );
    const data = stored.map((redemption, index) => serializeRedemptionCode(redemption, made[index]?.code));
    return reply.code(201).send({ data });
  });

  app.get('/redemption-codes', async (request) => ({
    data: (await redemptionCodes.list(parseListQuery(request.query))).map((code) =>
      serializeRedemptionCode(code),
    ),
  }));

  app.get('/redemption-codes/:id', async (request) => {
    const id = parseIdParam(request.params, 'redemption code');
    const found = await redemptionCodes.find(id);
    if (!found) throw notFound('redemption code', id);
    return serializeRedemptionCode(found);
  });

  app.patch('/redemption-codes/:id', async (request) => {
    const id = parseIdParam(request.params, 'redemption code');
    const { status } = parseBody(request.body, updateRedemptionCodeSchema, {
      readOnly: REDEMPTION_CODE_READ_ONLY_FIELDS,
    });
    const current = await redemptionCodes.find(id);
    if (!current) throw notFound('redemption code', id);
    // A code disabled twice keeps the time it was first disabled.
    const disabledAt = status === 'disabled' ? (current.disabledAt ?? unixNow()) : null;
    const updated = await redemptionCodes.setDisabledAt(id, disabledAt);
    if (!updated) throw notFound('redemption code', id);
    return serializeRedemptionCode(updated);
  });

  app.delete('/redemption-codes/:id', async (request) => {
    const id = parseIdParam(request.params, 'redemption code');
    const deleted = await redemptionCodes.delete(id);
    if (!deleted) throw notFound('redemption code', id);
    return serializeRedemptionCode(deleted);
  });
}
