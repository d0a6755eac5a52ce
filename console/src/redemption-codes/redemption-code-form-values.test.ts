import { describe, expect, it } from 'vitest';
import { toDateTimeLocal } from '../format/datetime-local';
import {
  EMPTY_REDEMPTION_CODE_FORM,
  toNewRedemptionCodes,
  validateRedemptionCodeForm,
} from './redemption-code-form-values';

const NOW = 1_800_000_000;

describe('validateRedemptionCodeForm', () => {
  it('asks for an amount above zero and 1 to 1000 codes', () => {
    expect(validateRedemptionCodeForm(EMPTY_REDEMPTION_CODE_FORM, NOW)).toEqual({ amount: 'required' });
    expect(validateRedemptionCodeForm({ ...EMPTY_REDEMPTION_CODE_FORM, amount: 0, count: 0 }, NOW)).toEqual({
      amount: 'amountPositive',
      count: 'countRange',
    });
    expect(
      validateRedemptionCodeForm({ ...EMPTY_REDEMPTION_CODE_FORM, amount: 1, count: 1001 }, NOW),
    ).toEqual({
      count: 'countRange',
    });
    expect(validateRedemptionCodeForm({ ...EMPTY_REDEMPTION_CODE_FORM, amount: 1, count: 2.5 }, NOW)).toEqual(
      {
        count: 'countRange',
      },
    );
    expect(
      validateRedemptionCodeForm({ ...EMPTY_REDEMPTION_CODE_FORM, amount: 1, count: 1000 }, NOW),
    ).toEqual({});
  });

  it('refuses an expiry that has passed', () => {
    const values = { ...EMPTY_REDEMPTION_CODE_FORM, amount: 1, expiresAt: toDateTimeLocal(NOW - 3600) };
    expect(validateRedemptionCodeForm(values, NOW)).toEqual({ expiresAt: 'expiryPast' });
  });
});

describe('toNewRedemptionCodes', () => {
  it('sends expiry and name only when given', () => {
    expect(toNewRedemptionCodes({ amount: '2.5', count: '3', expiresAt: '', name: '  ' })).toEqual({
      amount: 2.5,
      count: 3,
    });
    const expiresAt = toDateTimeLocal(NOW);
    expect(toNewRedemptionCodes({ amount: 1, count: 1, expiresAt, name: ' spring ' })).toEqual({
      amount: 1,
      count: 1,
      expires_at: NOW - (NOW % 60),
      name: 'spring',
    });
  });
});
