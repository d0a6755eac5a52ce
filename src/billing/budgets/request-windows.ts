import type { Budget } from './budget.js';
import { calendarWindow, type CalendarPeriod, type WindowBounds } from './budget-window.js';
import type { HoldBudget, WindowCharge } from './window-charge.js';

/** A key, a user or a group, with the limits a request of theirs counts against. */
export interface LimitedScope {
  scope: WindowCharge['scope'];
  /** The key's or user's id, or the group's name. */
  id: number | string;
  budgets: readonly Budget[];
  maxConcurrency: number | null;
}

/**
 * The windows a request for `model` counts in at `nowMs` (admin-api section 10, rule 1): every
 * budget of the scopes whose `models` take the model (the current window of each), and their
 * concurrency caps. Undefined when there are none.
 */
export function requestWindows(
  scopes: readonly LimitedScope[],
  request: { model: string; tokens: number; nowMs: number; timeZone: string; events: boolean },
): HoldBudget | undefined {
  const windows: WindowCharge[] = [];
  for (const scope of scopes) {
    for (const budget of scope.budgets) {
      if (budget.models && !budget.models.includes(request.model)) continue;
      addWindow(windows, budgetCharge(scope, budget, request.nowMs, request.timeZone));
    }
    if (scope.maxConcurrency !== null) windows.push(concurrencyCharge(scope, scope.maxConcurrency));
  }
  if (windows.length === 0) return undefined;
  return { tokens: request.tokens, windows, events: request.events };
}

/**
 * Two budgets of one scope with the same period and models count in one row: one window whose
 * limits are the lower of each, alerting at the fractions of both.
 */
function addWindow(windows: WindowCharge[], charge: WindowCharge): void {
  const same = windows.find((window) => window.key === charge.key);
  if (!same) {
    windows.push(charge);
    return;
  }
  same.usd = lower(same.usd, charge.usd);
  same.tokens = lower(same.tokens, charge.tokens);
  same.requests = lower(same.requests, charge.requests);
  same.alertAt = [...new Set([...same.alertAt, ...charge.alertAt])].sort((a, b) => a - b);
}

function lower(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

/**
 * The `budget_windows` row of a budget: whose it is, its period and its models. The limits are
 * not part of it, so a changed limit keeps counting the window's usage (rule 6).
 */
export function budgetWindowKey(scope: Pick<LimitedScope, 'scope' | 'id'>, budget: Budget): string {
  const period = budget.period === 'hours' ? `hours:${budget.hours}` : budget.period;
  const models = budget.models ? `|${[...budget.models].sort().join(',')}` : '';
  return `${scope.scope}:${scope.id}|${period}${models}`;
}

/** The row counting a scope's requests in flight. */
export function concurrencyWindowKey(scope: Pick<LimitedScope, 'scope' | 'id'>): string {
  return `${scope.scope}:${scope.id}|concurrency`;
}

function budgetCharge(scope: LimitedScope, budget: Budget, nowMs: number, timeZone: string): WindowCharge {
  const charge: WindowCharge = {
    key: budgetWindowKey(scope, budget),
    scope: scope.scope,
    owner: scope.id,
    period: budget.period,
    start: 0,
    end: null,
    sessionSeconds: null,
    usd: budget.usd,
    tokens: budget.tokens,
    requests: budget.requests,
    alertAt: budget.alertAt,
  };
  if (budget.period === 'hours') {
    charge.start = null;
    charge.sessionSeconds = (budget.hours ?? 1) * 3_600;
  } else if (budget.period !== 'total') {
    const bounds = currentCalendarWindow(budget.period, nowMs, timeZone);
    charge.start = Math.floor(bounds.startMs / 1000);
    charge.end = Math.floor(bounds.endMs / 1000);
  }
  return charge;
}

function concurrencyCharge(scope: LimitedScope, limit: number): WindowCharge {
  return {
    key: concurrencyWindowKey(scope),
    scope: scope.scope,
    owner: scope.id,
    period: 'concurrency',
    start: 0,
    end: null,
    sessionSeconds: null,
    usd: null,
    tokens: null,
    requests: limit,
    alertAt: [],
  };
}

/** The last calendar window worked out per period and zone: the zone's clock is read once per window. */
const calendarWindows = new Map<string, WindowBounds>();

export function currentCalendarWindow(period: CalendarPeriod, nowMs: number, timeZone: string): WindowBounds {
  const name = `${period} ${timeZone}`;
  const known = calendarWindows.get(name);
  if (known && known.startMs <= nowMs && nowMs < known.endMs) return known;
  const bounds = calendarWindow(period, nowMs, timeZone);
  if (calendarWindows.size > 1_000) calendarWindows.clear();
  calendarWindows.set(name, bounds);
  return bounds;
}
