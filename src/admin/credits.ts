import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { notFound } from './admin-error.js';
import { ownerIdOf } from './console-identity.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import { serializeBalanceCredit } from './serialize-balance-credit.js';

/** `GET /api/users/{id}/credits` (admin): the money put into a user's balance, newest first. */
export function registerCreditRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { users, balanceCredits } = services.repositories;
  app.get('/users/:id/credits', async (request) => {
    const id = parseIdParam(request.params, 'user');
    const page = parseListQuery(request.query);
    if (!(await users.find(id))) throw notFound('user', id);
    return { data: (await balanceCredits.listForUser(id, page)).map(serializeBalanceCredit) };
  });
}

/** `GET /api/me/credits`: the caller's own credits, newest first (none for the root admin). */
export function registerMyCreditRoutes(app: FastifyInstance, services: GatewayServices): void {
  app.get('/me/credits', async (request) => {
    const credits = await services.repositories.balanceCredits.listForUser(
      ownerIdOf(request),
      parseListQuery(request.query),
    );
    return { data: credits.map(serializeBalanceCredit) };
  });
}
