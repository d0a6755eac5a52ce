import type { Principal } from '../auth/principal.js';
import type { LimitedScope } from '../billing/budgets/request-windows.js';
import type { RoutingCatalog } from '../routing/routing-catalog.js';

const NONE: readonly LimitedScope[] = [];

/**
 * The key, its owner and its effective group, each when it has budgets or a concurrency cap
 * (admin-api section 10, rule 1). Most requests have none: they get an empty list at once.
 */
export function limitedScopesOf(principal: Principal, catalog: RoutingCatalog): readonly LimitedScope[] {
  const { key, user } = principal;
  const group = catalog.limitedGroup(principal.group);
  const keyLimited = key.budgets.length > 0 || key.maxConcurrency !== null;
  const userLimited = user.budgets.length > 0 || user.maxConcurrency !== null;
  if (!keyLimited && !userLimited && !group) return NONE;
  const scopes: LimitedScope[] = [];
  if (keyLimited)
    scopes.push({ scope: 'key', id: key.id, budgets: key.budgets, maxConcurrency: key.maxConcurrency });
  if (userLimited)
    scopes.push({ scope: 'user', id: user.id, budgets: user.budgets, maxConcurrency: user.maxConcurrency });
  if (group)
    scopes.push({
      scope: 'group',
      id: group.name,
      budgets: group.budgets,
      maxConcurrency: group.maxConcurrency,
    });
  return scopes;
}
