import type { FastifyInstance } from 'fastify';
import { budgetUsage, budgetWindowKeys, type BudgetUsage } from '../billing/budgets/budget-usage.js';
import type { LimitedScope } from '../billing/budgets/request-windows.js';
import { nanoToUsd } from '../billing/money.js';
import type { GatewayServices } from '../services.js';
import { BudgetWindowsRepository } from '../store/budget-windows-repository.js';
import { defaultGroup } from '../store/groups-repository.js';
import { notFound } from './admin-error.js';
import { serializeBudget } from './serialize-budget.js';
import { accountOf } from './console-identity.js';
import { parseIdParam } from './parse-id-param.js';

type BudgetScope = Pick<LimitedScope, 'scope' | 'id' | 'budgets'>;

/**
 * The budgets' current windows (admin-api section 10, rule 5): a key's, a user's, a group's, and
 * the caller's own (theirs and each of their keys').
 */
export function registerBudgetRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { keys, users, groups } = services.repositories;
  const answer = usageAnswer(services);

  app.get<{ Params: { id: string } }>('/keys/:id/budgets', async (request) => {
    const id = parseIdParam(request.params, 'key');
    const key = await keys.find(id);
    if (!key) throw notFound('key', id);
    return answer([{ scope: 'key', id: key.id, budgets: key.budgets }]);
  });

  app.get<{ Params: { id: string } }>('/users/:id/budgets', async (request) => {
    const id = parseIdParam(request.params, 'user');
    const user = await users.find(id);
    if (!user) throw notFound('user', id);
    return answer([{ scope: 'user', id: user.id, budgets: user.budgets }]);
  });

  app.get<{ Params: { name: string } }>('/groups/:name/budgets', async (request) => {
    const { name } = request.params;
    const group = (await groups.find(name)) ?? defaultGroup(name);
    return answer([{ scope: 'group', id: group.name, budgets: group.budgets }]);
  });
}

/** `GET /api/me/budgets`: the caller's windows and those of each of their keys. */
export function registerMyBudgetRoutes(app: FastifyInstance, services: GatewayServices): void {
  const answer = usageAnswer(services);
  app.get('/me/budgets', async (request) => {
    const user = accountOf(request);
    const own = (await services.repositories.users.find(user.id)) ?? user;
    const keys = await services.repositories.keys.list({ userId: user.id, limit: 10_000, offset: 0 });
    return answer([
      { scope: 'user', id: own.id, budgets: own.budgets },
      ...keys.map((key): BudgetScope => ({ scope: 'key', id: key.id, budgets: key.budgets })),
    ]);
  });
}

function usageAnswer(services: GatewayServices) {
  const windows = new BudgetWindowsRepository(services.store.db);
  return async (scopes: BudgetScope[]) => {
    const stored = await windows.find(budgetWindowKeys(scopes));
    const timeZone = services.settings.get().budget_time_zone;
    return { data: budgetUsage(scopes, stored, { nowMs: Date.now(), timeZone }).map(serializeUsage) };
  };
}

function serializeUsage(usage: BudgetUsage) {
  const { alert_at: _alertAt, ...budget } = serializeBudget(usage.budget);
  return {
    scope: usage.scope,
    id: usage.id,
    ...budget,
    used_usd: nanoToUsd(usage.usedUsd),
    used_tokens: usage.usedTokens,
    used_requests: usage.usedRequests,
    window_start: usage.windowStart,
    resets_at: usage.resetsAt,
  };
}
