import { parsePercent, type BudgetFormRow } from './budget-form-row';

/** Session windows last from one hour to thirty days (admin-api section 10). */
export const MAX_SESSION_HOURS = 720;
/** Budgets the gateway takes per key, user or group. */
export const MAX_BUDGETS = 32;
/** Alert fractions the gateway takes per budget. */
export const MAX_ALERTS = 10;

export type BudgetRowField = 'hours' | 'usd' | 'tokens' | 'requests' | 'alertAt' | 'limits';

export type BudgetProblem =
  | { index: number; field: 'hours'; problem: 'range'; min: number; max: number }
  | { index: number; field: 'usd'; problem: 'atLeast'; min: number }
  | { index: number; field: 'tokens' | 'requests'; problem: 'wholeAtLeast'; min: number }
  | { index: number; field: 'alertAt'; problem: 'percent' }
  | { index: number; field: 'alertAt'; problem: 'tooMany'; max: number }
  | { index: number; field: 'limits'; problem: 'noLimit' };

function isSet(value: number | string): boolean {
  return value !== '';
}

function isWholeAtLeast(value: number | string, min: number): boolean {
  const number = Number(value);
  return Number.isInteger(number) && number >= min;
}

/**
 * What the gateway would refuse in a budget, found before sending: a session window's length
 * outside 1-720 hours, negative or fractional limits, alert shares outside (0, 100] %, and a
 * budget without any limit.
 */
export function validateBudgetRows(rows: readonly BudgetFormRow[]): BudgetProblem[] {
  return rows.flatMap((row, index): BudgetProblem[] => {
    const problems: BudgetProblem[] = [];
    if (row.period === 'hours') {
      const hours = Number(row.hours);
      if (!isSet(row.hours) || !isWholeAtLeast(row.hours, 1) || hours > MAX_SESSION_HOURS) {
        problems.push({ index, field: 'hours', problem: 'range', min: 1, max: MAX_SESSION_HOURS });
      }
    }
    if (isSet(row.usd) && !(Number(row.usd) >= 0)) {
      problems.push({ index, field: 'usd', problem: 'atLeast', min: 0 });
    }
    for (const field of ['tokens', 'requests'] as const) {
      if (isSet(row[field]) && !isWholeAtLeast(row[field], 0)) {
        problems.push({ index, field, problem: 'wholeAtLeast', min: 0 });
      }
    }
    if (!isSet(row.usd) && !isSet(row.tokens) && !isSet(row.requests)) {
      problems.push({ index, field: 'limits', problem: 'noLimit' });
    }
    const percents = row.alertAt.map(parsePercent);
    if (percents.some((percent) => !(percent > 0 && percent <= 100))) {
      problems.push({ index, field: 'alertAt', problem: 'percent' });
    } else if (new Set(percents).size > MAX_ALERTS) {
      problems.push({ index, field: 'alertAt', problem: 'tooMany', max: MAX_ALERTS });
    }
    return problems;
  });
}
