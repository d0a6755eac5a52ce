import { describe, expect, it } from 'vitest';
import type { Budget } from '../api/types';
import { budgetToFormRow, emptyBudgetRow, formRowToBudget } from './budget-form-row';

describe('budget form rows', () => {
  it('turn each wire budget into a row and back unchanged', () => {
    const budgets: Budget[] = [
      {
        period: 'day',
        hours: null,
        usd: 5,
        tokens: null,
        requests: 1000,
        models: null,
        alert_at: [0.07, 0.8, 1],
      },
      {
        period: 'hours',
        hours: 5,
        usd: null,
        tokens: 200000,
        requests: null,
        models: ['gpt-4o'],
        alert_at: [],
      },
      {
        period: 'total',
        hours: null,
        usd: 0.000000001,
        tokens: null,
        requests: null,
        models: null,
        alert_at: [],
      },
    ];
    expect(budgets.map(budgetToFormRow).map(formRowToBudget)).toEqual(budgets);
  });

  it('hold limits as the inputs do and alerts as percentages without binary noise', () => {
    expect(
      budgetToFormRow({
        period: 'week',
        hours: null,
        usd: 12.5,
        tokens: null,
        requests: null,
        models: ['a', 'b'],
        alert_at: [0.07, 0.333, 1],
      }),
    ).toEqual({
      period: 'week',
      hours: 5,
      usd: 12.5,
      tokens: '',
      requests: '',
      models: ['a', 'b'],
      alertAt: ['7', '33.3', '100'],
    });
  });

  it('send hours only with a session window, no models as null, and "80%" as 0.8', () => {
    const row = {
      ...emptyBudgetRow(),
      period: 'month' as const,
      hours: 5,
      tokens: 10,
      alertAt: ['80%', '50'],
    };
    expect(formRowToBudget(row)).toEqual({
      period: 'month',
      hours: null,
      usd: null,
      tokens: 10,
      requests: null,
      models: null,
      alert_at: [0.8, 0.5],
    });
    expect(formRowToBudget({ ...row, period: 'hours', hours: 24 })).toMatchObject({
      period: 'hours',
      hours: 24,
    });
  });
});
