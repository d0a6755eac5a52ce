import type { TFunction } from 'i18next';
import type { Budget } from '../api/types';

/** A budget's window in a few words: `day`, `5-hour window`, `day (gpt-4o only)`. */
export function budgetWindowLabel(budget: Pick<Budget, 'period' | 'hours' | 'models'>, t: TFunction): string {
  const window = t(`budgets.windows.${budget.period}`, { hours: budget.hours ?? '?' });
  if (budget.models === null || budget.models.length === 0) return window;
  return t('budgets.modelsOnly', { window, models: budget.models.join(', ') });
}
