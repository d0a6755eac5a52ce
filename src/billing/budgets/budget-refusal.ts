import { GatewayError } from '../../errors/gateway-error.js';
import { formatUsd } from '../money.js';
import type { BudgetPeriod } from './budget-window.js';
import type { WindowCharge, WindowRefusal } from './window-charge.js';

/** Whose window refused a request: a key's, a user's, or a group's (named). */
export type BudgetScope = { kind: 'key' } | { kind: 'user' } | { kind: 'group'; name: string };

/** The limit a window reached: `usd` in nano-USD. */
export type BudgetLimit =
  | { dimension: 'usd'; value: number }
  | { dimension: 'tokens'; value: number }
  | { dimension: 'requests'; value: number };

/**
 * The refusal of a request a window cannot fit (admin-api section 10, rule 3): 429 with
 * `Retry-After` the whole seconds until the window resets, or 403 for a `total` window, which
 * never does. Family A shape on every endpoint, as for the other checks on arrival.
 */
export function budgetExceededError(options: {
  scope: BudgetScope;
  period: BudgetPeriod;
  limit: BudgetLimit;
  /** When the window resets, in Unix milliseconds; null for `total`. */
  resetsAtMs: number | null;
  nowMs: number;
}): GatewayError {
  const scope = options.scope.kind === 'group' ? `group ${options.scope.name}` : options.scope.kind;
  const limit = describeLimit(options.limit);
  if (options.period === 'total' || options.resetsAtMs === null)
    return new GatewayError('budget_total_exceeded', { scope, limit });
  const seconds = Math.max(1, Math.ceil((options.resetsAtMs - options.nowMs) / 1000));
  return new GatewayError(
    'budget_exceeded',
    { scope, period: options.period, limit, resetsAt: isoSeconds(options.resetsAtMs) },
    { headers: { 'retry-after': String(seconds) } },
  );
}

/** A concurrency cap reached (rule 4): 429 with `Retry-After: 1`. */
export function concurrencyLimitError(limit: number): GatewayError {
  return new GatewayError('concurrency_limit_exceeded', { limit }, { headers: { 'retry-after': '1' } });
}

/** `$<usd with 6 decimals>`, `<n> tokens` or `<n> requests`. */
function describeLimit(limit: BudgetLimit): string {
  switch (limit.dimension) {
    case 'usd':
      return formatUsd(limit.value);
    case 'tokens':
      return `${limit.value} tokens`;
    case 'requests':
      return `${limit.value} requests`;
    default: {
      const unknown: never = limit;
      return String(unknown);
    }
  }
}

/** ISO 8601 in UTC, to the second: `2026-12-07T00:00:00Z`. */
function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The refusal of a reservation one of its windows did not fit, as the client hears it. */
export function windowRefusalError(
  window: WindowCharge,
  refusal: WindowRefusal,
  nowMs: number,
): GatewayError {
  if (window.period === 'concurrency') return concurrencyLimitError(window.requests ?? 0);
  const scope: BudgetScope =
    window.scope === 'group' ? { kind: 'group', name: String(window.owner) } : { kind: window.scope };
  const endS =
    window.end ?? (window.sessionSeconds === null ? null : refusal.windowStart + window.sessionSeconds);
  return budgetExceededError({
    scope,
    period: window.period,
    limit: { dimension: refusal.dimension, value: window[refusal.dimension] ?? 0 },
    resetsAtMs: window.period === 'total' || endS === null ? null : endS * 1000,
    nowMs,
  });
}
