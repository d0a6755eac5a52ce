import { requestWindows, type LimitedScope } from '../../billing/budgets/request-windows.js';
import type { HoldBudget } from '../../billing/budgets/window-charge.js';

/**
 * A realtime session's windows (admin-api section 10), split between its two kinds of holds: its
 * concurrency slots, taken from the upgrade until it closes (the session is one request in flight
 * however many responses it has), and its budgets, counted per response (each response is a request
 * pre-charged and charged). Undefined where there are none.
 */
export function sessionWindows(
  scopes: readonly LimitedScope[],
  request: { model: string; tokens: number; nowMs: number; timeZone: string; events: boolean },
): { slots: HoldBudget | undefined; budgets: HoldBudget | undefined } {
  const all = requestWindows(scopes, request);
  if (!all) return { slots: undefined, budgets: undefined };
  const slots = all.windows.filter((window) => window.period === 'concurrency');
  const budgets = all.windows.filter((window) => window.period !== 'concurrency');
  return {
    slots: slots.length > 0 ? { tokens: 0, windows: slots, events: false } : undefined,
    budgets: budgets.length > 0 ? { ...all, windows: budgets } : undefined,
  };
}
