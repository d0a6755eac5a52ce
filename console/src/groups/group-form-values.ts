import type { Group, GroupFields } from '../api/types';
import {
  formValuesToSpendLimits,
  spendLimitsToFormValues,
  type SpendLimitFormValues,
} from '../budgets/spend-limit-form-values';

/** What the group form edits: the name picks the group, the rest is its `PUT` body. */
export interface GroupFormValues extends SpendLimitFormValues {
  name: string;
  ratio: number | string;
  logBodies: boolean;
}

/** Empty, for a new group: ratio 1, no budgets, no cap and no bodies stored (admin-api sections 2, 10 and 12). */
export function groupToFormValues(group?: Group): GroupFormValues {
  return {
    name: group?.name ?? '',
    ratio: group?.ratio ?? 1,
    logBodies: group?.log_bodies ?? false,
    ...spendLimitsToFormValues(group),
  };
}

export function formValuesToGroupFields(values: GroupFormValues): GroupFields {
  return { ratio: Number(values.ratio), ...formValuesToSpendLimits(values), log_bodies: values.logBodies };
}
