import { MAX_CODES_PER_BATCH } from '../api/code-batch-limit';
import { fromDateTimeLocal } from '../format/datetime-local';
import type { NewRedemptionCodes } from './redemption-code';

export interface RedemptionCodeFormValues {
  amount: number | string;
  count: number | string;
  /** `datetime-local` text; empty: the codes never expire. */
  expiresAt: string;
  name: string;
}

export const EMPTY_REDEMPTION_CODE_FORM: RedemptionCodeFormValues = {
  amount: '',
  count: 1,
  expiresAt: '',
  name: '',
};

export type RedemptionCodeFormError = 'required' | 'amountPositive' | 'countRange' | 'expiryPast';

/** What is wrong with each field, before anything is sent; `now` in Unix seconds. */
export function validateRedemptionCodeForm(
  values: RedemptionCodeFormValues,
  now: number,
): Partial<Record<keyof RedemptionCodeFormValues, RedemptionCodeFormError>> {
  const errors: Partial<Record<keyof RedemptionCodeFormValues, RedemptionCodeFormError>> = {};
  if (values.amount === '') errors.amount = 'required';
  else if (!(Number(values.amount) > 0)) errors.amount = 'amountPositive';
  const count = Number(values.count);
  if (values.count === '') errors.count = 'required';
  else if (!Number.isInteger(count) || count < 1 || count > MAX_CODES_PER_BATCH) errors.count = 'countRange';
  const expiresAt = fromDateTimeLocal(values.expiresAt);
  if (expiresAt !== null && expiresAt <= now) errors.expiresAt = 'expiryPast';
  return errors;
}

/** The request body: expiry and name only when given. */
export function toNewRedemptionCodes(values: RedemptionCodeFormValues): NewRedemptionCodes {
  const expiresAt = fromDateTimeLocal(values.expiresAt);
  const name = values.name.trim();
  return {
    amount: Number(values.amount),
    count: Number(values.count),
    ...(expiresAt === null ? {} : { expires_at: expiresAt }),
    ...(name === '' ? {} : { name }),
  };
}

/** The form field a refusal of the gateway names (`param`), if it is one of this form's. */
export function redemptionCodeFieldOfParam(param: string): keyof RedemptionCodeFormValues | undefined {
  switch (param) {
    case 'amount':
      return 'amount';
    case 'count':
      return 'count';
    case 'expires_at':
      return 'expiresAt';
    case 'name':
      return 'name';
    default:
      return undefined;
  }
}
