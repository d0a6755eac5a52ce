import { apiRequest } from './api-client';
import type { BudgetUsage, ListResponse } from './types';

/** Whose budget windows to read: a key, a user or a group (admin), or the caller's own and their keys'. */
export type BudgetOwner =
  | { scope: 'key'; id: number }
  | { scope: 'user'; id: number }
  | { scope: 'group'; name: string }
  | { scope: 'own' };

function budgetsPath(owner: BudgetOwner): string {
  switch (owner.scope) {
    case 'key':
      return `/keys/${owner.id}/budgets`;
    case 'user':
      return `/users/${owner.id}/budgets`;
    case 'group':
      return `/groups/${encodeURIComponent(owner.name)}/budgets`;
    case 'own':
      return '/me/budgets';
    default: {
      const unknown: never = owner;
      throw new Error(`unknown budget owner ${JSON.stringify(unknown)}`);
    }
  }
}

/** The current window of each budget (admin-api section 10, rule 5); reservations in flight count as used. */
export async function fetchBudgetUsage(owner: BudgetOwner): Promise<BudgetUsage[]> {
  return (await apiRequest<ListResponse<BudgetUsage>>(budgetsPath(owner))).data;
}
