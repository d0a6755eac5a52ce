import type { TFunction } from 'i18next';
import { formatCount } from '../format/format-number';
import { formatUsd } from '../format/format-usd';

/** The three things a budget limits (admin-api section 10). */
export type BudgetDimension = 'usd' | 'tokens' | 'requests';

export const BUDGET_DIMENSIONS = ['usd', 'tokens', 'requests'] as const satisfies readonly BudgetDimension[];

/** An amount of one dimension with its unit: `$5.000000`, `1,000 tokens`, `20 requests`. */
export function formatBudgetAmount(
  dimension: BudgetDimension,
  value: number,
  options: { t: TFunction; language: string },
): string {
  const { t, language } = options;
  switch (dimension) {
    case 'usd':
      return formatUsd(value);
    case 'tokens':
      return t('budgets.tokensAmount', { count: value, amount: formatCount(value, language) });
    case 'requests':
      return t('budgets.requestsAmount', { count: value, amount: formatCount(value, language) });
    default: {
      const unknown: never = dimension;
      return String(unknown);
    }
  }
}
