import type { KeyScope } from '../api/keys-api';
import type { AccountStatus, ApiKey, KeyFields } from '../api/types';
import {
  formValuesToSpendLimits,
  spendLimitsToFormValues,
  type SpendLimitFormValues,
} from '../budgets/spend-limit-form-values';
import { splitList } from '../components/split-list';
import { fromDateTimeLocal, toDateTimeLocal } from '../format/datetime-local';
import { choiceToLogBodies, logBodiesToChoice, type LogBodiesChoice } from './log-bodies-choice';

/** What the key form edits; numbers as the inputs hold them, '' for "none". */
export interface KeyFormValues extends SpendLimitFormValues {
  /** Only when an admin creates a key: the owner, as the select holds it. */
  userId: string;
  name: string;
  status: AccountStatus;
  /** `datetime-local` text; '' for never. */
  expiresAt: string;
  unlimitedQuota: boolean;
  quota: number | string;
  modelLimits: string[];
  ipAllowList: string[];
  group: string;
  rpm: number | string;
  tpm: number | string;
  /** Admins only: whether the key's bodies are stored. */
  logBodies: LogBodiesChoice;
}

function optionalInteger(value: number | string): number | null {
  return value === '' ? null : Number(value);
}

export function keyToFormValues(key?: ApiKey): KeyFormValues {
  return {
    userId: key ? String(key.user_id) : '',
    name: key?.name ?? '',
    // `expired` and `exhausted` are derived: the stored status of such a key is enabled.
    status: key?.status === 'disabled' ? 'disabled' : 'enabled',
    expiresAt: toDateTimeLocal(key?.expires_at ?? null),
    unlimitedQuota: key?.unlimited_quota ?? true,
    quota: key?.quota ?? 0,
    modelLimits: [...(key?.model_limits ?? [])],
    ipAllowList: [...(key?.ip_allow_list ?? [])],
    group: key?.group ?? '',
    rpm: key?.rpm ?? '',
    tpm: key?.tpm ?? '',
    logBodies: logBodiesToChoice(key?.log_bodies),
    ...spendLimitsToFormValues(key),
  };
}

/**
 * Every attribute of admin-api sections 2 and 10, and for an admin `log_bodies` of section 12 (a
 * user's `/api/me/keys` refuses it); empty lists and text mean "no restriction" (null).
 */
export function formValuesToKeyFields(values: KeyFormValues, scope: KeyScope): KeyFields {
  const modelLimits = splitList(values.modelLimits);
  const ipAllowList = splitList(values.ipAllowList);
  return {
    name: values.name.trim(),
    status: values.status,
    expires_at: fromDateTimeLocal(values.expiresAt),
    unlimited_quota: values.unlimitedQuota,
    quota: values.quota === '' ? 0 : Number(values.quota),
    model_limits: modelLimits.length > 0 ? modelLimits : null,
    ip_allow_list: ipAllowList.length > 0 ? ipAllowList : null,
    group: values.group.trim() === '' ? null : values.group.trim(),
    rpm: optionalInteger(values.rpm),
    tpm: optionalInteger(values.tpm),
    ...formValuesToSpendLimits(values),
    ...(scope === 'admin' ? { log_bodies: choiceToLogBodies(values.logBodies) } : {}),
  };
}

/** The PATCH body of an edit: only the attributes that changed. */
export function keyChanges(edit: {
  scope: KeyScope;
  initial: KeyFormValues;
  values: KeyFormValues;
}): Partial<KeyFields> {
  const before = formValuesToKeyFields(edit.initial, edit.scope);
  const after = formValuesToKeyFields(edit.values, edit.scope);
  const changes: Partial<KeyFields> = {};
  for (const name of Object.keys(after) as (keyof KeyFields)[]) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) {
      Object.assign(changes, { [name]: after[name] });
    }
  }
  return changes;
}
