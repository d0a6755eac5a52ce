import type { StoredWindow } from '../../store/budget-windows-repository.js';
import type { Budget } from './budget.js';
import { budgetWindowKey, currentCalendarWindow, type LimitedScope } from './request-windows.js';

/** One budget's current window as the budgets endpoints show it (admin-api section 10, rule 5). */
export interface BudgetUsage {
  scope: LimitedScope['scope'];
  id: number | string;
  budget: Budget;
  /** nano-USD, tokens and requests, reservations in flight included. */
  usedUsd: number;
  usedTokens: number;
  usedRequests: number;
  /** Unix seconds; null where there is none (`total`, a session window not open). */
  windowStart: number | null;
  resetsAt: number | null;
}

/** The keys of the `budget_windows` rows the scopes' budgets count in. */
export function budgetWindowKeys(
  scopes: readonly Pick<LimitedScope, 'scope' | 'id' | 'budgets'>[],
): string[] {
  return scopes.flatMap((scope) => scope.budgets.map((budget) => budgetWindowKey(scope, budget)));
}

/**
 * Each budget's window at `nowMs`: the stored counts while the stored window is the current one,
 * zero once it is past (the next request starts it again).
 */
export function budgetUsage(
  scopes: readonly Pick<LimitedScope, 'scope' | 'id' | 'budgets'>[],
  stored: ReadonlyMap<string, StoredWindow>,
  options: { nowMs: number; timeZone: string },
): BudgetUsage[] {
  const nowS = Math.floor(options.nowMs / 1000);
  return scopes.flatMap((scope) =>
    scope.budgets.map((budget): BudgetUsage => {
      const row = stored.get(budgetWindowKey(scope, budget));
      let windowStart: number | null = null;
      let resetsAt: number | null = null;
      let current = row !== undefined;
      if (budget.period === 'hours') {
        const length = (budget.hours ?? 1) * 3_600;
        current = row !== undefined && nowS < row.start + length;
        if (current) {
          windowStart = row!.start;
          resetsAt = row!.start + length;
        }
      } else if (budget.period !== 'total') {
        const bounds = currentCalendarWindow(budget.period, options.nowMs, options.timeZone);
        windowStart = Math.floor(bounds.startMs / 1000);
        resetsAt = Math.floor(bounds.endMs / 1000);
        current = row !== undefined && row.start >= windowStart;
      }
      return {
        scope: scope.scope,
        id: scope.id,
        budget,
        usedUsd: current ? row!.usedUsd + row!.heldUsd : 0,
        usedTokens: current ? row!.usedTokens + row!.heldTokens : 0,
        usedRequests: current ? row!.usedRequests + row!.heldRequests : 0,
        windowStart,
        resetsAt,
      };
    }),
  );
}
