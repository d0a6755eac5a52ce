import type { BudgetPeriod } from './budget-window.js';

/**
 * One window a request counts in, as the money move checks and fills it (admin-api section 10):
 * a budget's current window, or a concurrency cap. Limits in nano-USD, tokens and requests.
 */
export interface WindowCharge {
  /** The `budget_windows` row: whose window, which period, which models. */
  key: string;
  /** Whose window it is: the key's or user's id, or the group's name. */
  scope: 'key' | 'user' | 'group';
  owner: number | string;
  /** A budget's period, or `concurrency` for a concurrency cap (only requests in flight count). */
  period: BudgetPeriod | 'concurrency';
  /**
   * Where the window starts (Unix seconds): a calendar window's start, 0 for `total` and for a
   * concurrency cap; null for a session window, whose start the move reads or opens.
   */
  start: number | null;
  /** A calendar window's end (Unix seconds); null for the others. */
  end: number | null;
  /** A session window's length in seconds; null for the others. */
  sessionSeconds: number | null;
  usd: number | null;
  tokens: number | null;
  requests: number | null;
  /** Usage fractions that send a `budget.threshold` event (10.1), ascending; empty for none. */
  alertAt: readonly number[];
}

/** The reservation a request makes in its windows: one request, its pre-charge, its tokens. */
export interface HoldBudget {
  /** Estimated input tokens plus the output cap. */
  tokens: number;
  windows: readonly WindowCharge[];
  /** Event webhooks are configured: windows crossing their `alert_at` fractions send events. */
  events: boolean;
}

/** A reservation refused by a window: which one, by which limit, and where that window started. */
export interface WindowRefusal {
  window: number;
  dimension: 'usd' | 'tokens' | 'requests';
  /** Unix seconds. */
  windowStart: number;
  /** The window's usage of that dimension, reservations in flight included. */
  used: number;
}

/** Which side refused a reservation, if any. */
export type ReserveOutcome = 'reserved' | 'balance' | 'quota' | WindowRefusal;
