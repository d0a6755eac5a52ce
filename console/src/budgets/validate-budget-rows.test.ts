import { describe, expect, it } from 'vitest';
import { emptyBudgetRow, type BudgetFormRow } from './budget-form-row';
import { validateBudgetRows } from './validate-budget-rows';

function row(changes: Partial<BudgetFormRow>): BudgetFormRow {
  return { ...emptyBudgetRow(), usd: 5, ...changes };
}

describe('validateBudgetRows', () => {
  it('accepts budgets the gateway takes', () => {
    expect(
      validateBudgetRows([
        row({}),
        row({ period: 'hours', hours: 720, usd: '', requests: 0 }),
        row({ period: 'total', usd: 0, alertAt: ['0.5', '100%'] }),
        // A length left over from an earlier choice of period is not sent, so not checked.
        row({ period: 'day', hours: '' }),
      ]),
    ).toEqual([]);
  });

  it('asks for at least one limit, naming the budget', () => {
    expect(validateBudgetRows([row({}), row({ usd: '' })])).toEqual([
      { index: 1, field: 'limits', problem: 'noLimit' },
    ]);
  });

  it('asks a session window for whole hours from 1 to 720', () => {
    for (const hours of ['', 0, 721, 1.5]) {
      expect(validateBudgetRows([row({ period: 'hours', hours })])).toEqual([
        { index: 0, field: 'hours', problem: 'range', min: 1, max: 720 },
      ]);
    }
  });

  it('refuses fractional counts, negative limits and alerts outside (0, 100] %', () => {
    expect(validateBudgetRows([row({ usd: -1, tokens: 1.5, requests: -2, alertAt: ['0'] })])).toEqual([
      { index: 0, field: 'usd', problem: 'atLeast', min: 0 },
      { index: 0, field: 'tokens', problem: 'wholeAtLeast', min: 0 },
      { index: 0, field: 'requests', problem: 'wholeAtLeast', min: 0 },
      { index: 0, field: 'alertAt', problem: 'percent' },
    ]);
    expect(validateBudgetRows([row({ alertAt: ['101'] })])).toHaveLength(1);
    expect(validateBudgetRows([row({ alertAt: ['half'] })])).toHaveLength(1);
    const eleven = Array.from({ length: 11 }, (_, index) => String(index + 1));
    expect(validateBudgetRows([row({ alertAt: eleven })])).toEqual([
      { index: 0, field: 'alertAt', problem: 'tooMany', max: 10 },
    ]);
  });
});
