import type { TFunction } from 'i18next';
import type { Budget } from '../api/types';
import { budgetWindowLabel } from './budget-window-label';
import { BUDGET_DIMENSIONS, formatBudgetAmount } from './format-budget-amount';

/** A budget in one line for tables: `day: $5.000000, 1,000 requests`. */
export function summarizeBudget(budget: Budget, options: { t: TFunction; language: string }): string {
  const limits = BUDGET_DIMENSIONS.flatMap((dimension) => {
    const limit = budget[dimension];
    return limit === null ? [] : [formatBudgetAmount(dimension, limit, options)];
  });
  return options.t('budgets.summary', {
    window: budgetWindowLabel(budget, options.t),
    limits: limits.join(', '),
  });
}
