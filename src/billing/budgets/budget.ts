import type { BudgetPeriod } from './budget-window.js';

/** One spending window of a key, a user or a group (admin-api section 10). */
export interface Budget {
  period: BudgetPeriod;
  /** The session window's length, with period `hours` only. */
  hours: number | null;
  /** Limits; at least one is set. `usd` in nano-USD. */
  usd: number | null;
  tokens: number | null;
  requests: number | null;
  /** When set, only requests for these public model ids count against the window. */
  models: string[] | null;
  /** Usage fractions in (0, 1] that send a `budget.threshold` event. */
  alertAt: number[];
}
