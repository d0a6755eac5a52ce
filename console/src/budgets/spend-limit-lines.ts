import type { TFunction } from 'i18next';
import type { SpendLimits } from '../api/types';
import { formatCount } from '../format/format-number';
import { summarizeBudget } from './summarize-budget';

/** The concurrency cap and each budget of an owner, one line each, for its row in a list. */
export function spendLimitLines(limits: SpendLimits, options: { t: TFunction; language: string }): string[] {
  const { t, language } = options;
  return [
    ...(limits.max_concurrency === null
      ? []
      : [`${t('budgets.maxConcurrency')}: ${formatCount(limits.max_concurrency, language)}`]),
    ...limits.budgets.map((budget) => summarizeBudget(budget, options)),
  ];
}
