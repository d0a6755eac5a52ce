import type { Budget, BudgetPeriod } from '../api/types';
import { splitList } from '../components/split-list';

export const BUDGET_PERIODS = [
  'hour',
  'day',
  'week',
  'month',
  'hours',
  'total',
] as const satisfies readonly BudgetPeriod[];

/** The length a new session window starts with: the 5-hour windows of subscription plans (admin-api section 10). */
const DEFAULT_SESSION_HOURS = 5;

/** One budget as the editor holds it: numbers as the inputs hold them, '' for "not set". */
export interface BudgetFormRow {
  period: BudgetPeriod;
  /** Used with period `hours` only; kept while another period is chosen, so switching back restores it. */
  hours: number | string;
  usd: number | string;
  tokens: number | string;
  requests: number | string;
  models: string[];
  /** Percentages of the limit, as typed: the wire's fractions times 100. */
  alertAt: string[];
}

export function emptyBudgetRow(): BudgetFormRow {
  return {
    period: 'day',
    hours: DEFAULT_SESSION_HOURS,
    usd: '',
    tokens: '',
    requests: '',
    models: [],
    alertAt: [],
  };
}

/** A fraction as a percentage without binary noise: 0.07 -> "7", not "7.000000000000001". */
function fractionToPercent(fraction: number): string {
  return String(Number((fraction * 100).toPrecision(12)));
}

/** A typed percentage, `80` or `80%`, as a number (NaN when it is none). */
export function parsePercent(text: string): number {
  return Number(text.trim().replace(/%$/, ''));
}

function percentToFraction(percent: string): number {
  return Number((parsePercent(percent) / 100).toPrecision(12));
}

function optionalNumber(value: number | string): number | null {
  return value === '' ? null : Number(value);
}

export function budgetToFormRow(budget: Budget): BudgetFormRow {
  return {
    period: budget.period,
    hours: budget.hours ?? DEFAULT_SESSION_HOURS,
    usd: budget.usd ?? '',
    tokens: budget.tokens ?? '',
    requests: budget.requests ?? '',
    models: [...(budget.models ?? [])],
    alertAt: budget.alert_at.map(fractionToPercent),
  };
}

/** The wire form (admin-api section 10): `hours` only with period `hours`, no models as null. */
export function formRowToBudget(row: BudgetFormRow): Budget {
  const models = splitList(row.models);
  return {
    period: row.period,
    hours: row.period === 'hours' ? optionalNumber(row.hours) : null,
    usd: optionalNumber(row.usd),
    tokens: optionalNumber(row.tokens),
    requests: optionalNumber(row.requests),
    models: models.length > 0 ? models : null,
    alert_at: splitList(row.alertAt).map(percentToFraction),
  };
}
