import type { TFunction } from 'i18next';
import type { BudgetUsage } from '../api/types';
import { formatCount } from '../format/format-number';
import { formatDateTime } from '../format/format-time';
import { formatUsd } from '../format/format-usd';
import { budgetWindowLabel } from './budget-window-label';
import { BUDGET_DIMENSIONS, formatBudgetAmount, type BudgetDimension } from './format-budget-amount';

/** One limit of a window: what is used of it, as a share and as a sentence. */
export interface BudgetUsageBar {
  dimension: BudgetDimension;
  used: number;
  limit: number;
  /** used / limit; past 1 when reservations in flight overshoot. A zero limit is full. */
  share: number;
  /** `day · $1.200000 of $5.000000 · resets 2026-12-07 00:00:00` */
  label: string;
}

const USED: Record<BudgetDimension, (usage: BudgetUsage) => number> = {
  usd: (usage) => usage.used_usd,
  tokens: (usage) => usage.used_tokens,
  requests: (usage) => usage.used_requests,
};

/** One bar per limit the window sets, in the order USD, tokens, requests. */
export function budgetUsageBars(
  usage: BudgetUsage,
  options: { t: TFunction; language: string },
): BudgetUsageBar[] {
  const { t, language } = options;
  const window = budgetWindowLabel(usage, t);
  return BUDGET_DIMENSIONS.flatMap((dimension): BudgetUsageBar[] => {
    const limit = usage[dimension];
    if (limit === null) return [];
    const used = USED[dimension](usage);
    const line = {
      window,
      used: dimension === 'usd' ? formatUsd(used) : formatCount(used, language),
      limit: formatBudgetAmount(dimension, limit, options),
    };
    let label: string;
    if (usage.period === 'total') label = t('budgets.usageLineNever', line);
    else if (usage.resets_at === null) label = t('budgets.usageLineIdle', line);
    else label = t('budgets.usageLine', { ...line, resets: formatDateTime(usage.resets_at) });
    return [{ dimension, used, limit, share: limit === 0 ? 1 : used / limit, label }];
  });
}
