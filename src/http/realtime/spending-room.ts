import type { Principal } from '../../auth/principal.js';
import { windowRefusalError } from '../../billing/budgets/budget-refusal.js';
import { requestWindows, type LimitedScope } from '../../billing/budgets/request-windows.js';
import { formatUsd } from '../../billing/money.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { BudgetWindowsRepository } from '../../store/budget-windows-repository.js';
import type { Repositories } from '../../store/repositories.js';
import { fullBudgetWindow } from './full-budget-window.js';

export interface SpendingRoomSources {
  repositories: Pick<Repositories, 'users' | 'keys'>;
  budgetWindows: BudgetWindowsRepository;
}

/**
 * Whether a realtime session has room to spend (admin-api section 14): the user's balance above
 * zero, a capped key's quota above zero, and no budget window of the key, the user or the group
 * full. Read from the store, not reserved: it decides whether a session opens and whether it goes on
 * after a charge; each response's own reservation is what holds the money. Returns the refusal as
 * an HTTP request would get it (client-api section 7, admin-api section 10), or undefined.
 */
export async function checkSpendingRoom(
  sources: SpendingRoomSources,
  request: {
    principal: Principal;
    scopes: readonly LimitedScope[];
    model: string;
    /** What the next response would reserve, named by a quota refusal (nano-USD). */
    need: number;
    timeZone: string;
    nowMs: number;
  },
): Promise<GatewayError | undefined> {
  const { principal } = request;
  const user = await sources.repositories.users.find(principal.user.id);
  const balance = user?.balance ?? 0;
  if (balance <= 0) return new GatewayError('balance_exhausted', { balance: formatUsd(balance) });
  if (!principal.key.unlimitedQuota) {
    const quota = (await sources.repositories.keys.find(principal.key.id))?.quota ?? 0;
    if (quota <= 0)
      return new GatewayError('key_quota_below_precharge', {
        remain: formatUsd(quota),
        need: formatUsd(request.need),
      });
  }
  const budget = requestWindows(request.scopes, {
    model: request.model,
    tokens: 0,
    nowMs: request.nowMs,
    timeZone: request.timeZone,
    events: false,
  });
  const windows = budget?.windows.filter((window) => window.period !== 'concurrency') ?? [];
  if (windows.length === 0) return undefined;
  const stored = await sources.budgetWindows.find(windows.map((window) => window.key));
  const refusal = fullBudgetWindow(windows, stored, Math.floor(request.nowMs / 1000));
  return refusal && windowRefusalError(windows[refusal.window]!, refusal, request.nowMs);
}
