import type { SpendLimits } from '../api/types';
import { budgetToFormRow, formRowToBudget, type BudgetFormRow } from './budget-form-row';

/** The spend limits of admin-api section 10 as a form holds them; '' for "no cap". */
export interface SpendLimitFormValues {
  budgets: BudgetFormRow[];
  maxConcurrency: number | string;
}

/** A new owner has no budgets and no cap. */
export function spendLimitsToFormValues(limits?: SpendLimits): SpendLimitFormValues {
  return {
    budgets: (limits?.budgets ?? []).map(budgetToFormRow),
    maxConcurrency: limits?.max_concurrency ?? '',
  };
}

export function formValuesToSpendLimits(values: SpendLimitFormValues): SpendLimits {
  return {
    budgets: values.budgets.map(formRowToBudget),
    max_concurrency: values.maxConcurrency === '' ? null : Number(values.maxConcurrency),
  };
}
