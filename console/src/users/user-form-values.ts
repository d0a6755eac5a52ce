import type { AccountStatus, Language, Role, User, UserFields } from '../api/types';
import {
  formValuesToSpendLimits,
  spendLimitsToFormValues,
  type SpendLimitFormValues,
} from '../budgets/spend-limit-form-values';

/** What the user form edits; numbers as the inputs hold them, '' for "none". */
export interface UserFormValues extends SpendLimitFormValues {
  username: string;
  /** '' keeps the current password. */
  password: string;
  role: Role;
  group: string;
  balance: number | string;
  language: Language | '';
  status: AccountStatus;
  lowBalanceAlert: number | string;
}

export function userToFormValues(user?: User): UserFormValues {
  return {
    username: user?.username ?? '',
    password: '',
    role: user?.role ?? 'user',
    group: user?.group ?? 'default',
    balance: user?.balance ?? 0,
    language: user?.language ?? '',
    status: user?.status ?? 'enabled',
    lowBalanceAlert: user?.low_balance_alert ?? '',
    ...spendLimitsToFormValues(user),
  };
}

/** Every attribute of admin-api sections 2 and 10; the password only when one is typed. */
export function formValuesToUserFields(values: UserFormValues): UserFields {
  return {
    username: values.username.trim(),
    role: values.role,
    group: values.group.trim(),
    balance: Number(values.balance),
    language: values.language === '' ? null : values.language,
    status: values.status,
    low_balance_alert: values.lowBalanceAlert === '' ? null : Number(values.lowBalanceAlert),
    ...formValuesToSpendLimits(values),
    ...(values.password === '' ? {} : { password: values.password }),
  };
}

/**
 * The PATCH body of an edit: only the attributes that changed. The balance never: after creation
 * it changes by top-up only, so a stale form cannot undo a charge.
 */
export function userChanges(initial: UserFormValues, values: UserFormValues): Partial<UserFields> {
  const before = formValuesToUserFields(initial);
  const { balance: _balance, ...after } = formValuesToUserFields(values);
  const changes: Partial<UserFields> = {};
  for (const name of Object.keys(after) as (keyof typeof after)[]) {
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) {
      Object.assign(changes, { [name]: after[name] });
    }
  }
  return changes;
}
