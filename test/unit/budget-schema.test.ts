import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { budgetsSchema } from '../../src/admin/budget-schema.js';
import { describeIssue } from '../../src/admin/describe-issue.js';

// admin-api section 10: the budget objects of keys, users and groups, and the 400 that names the member.

const body = z.strictObject({ budgets: budgetsSchema });

function refusal(budgets: unknown): { field: string; problem: string } | undefined {
  const input = { budgets };
  const result = body.safeParse(input);
  if (result.success) return undefined;
  const issue =
    result.error.issues.find((each) => each.code === 'unrecognized_keys') ?? result.error.issues[0]!;
  return describeIssue(issue, input);
}

describe('budgets', () => {
  it('takes each period, with defaults for what is left out', () => {
    const parsed = body.parse({
      budgets: [
        { period: 'day', usd: 5 },
        { period: 'hours', hours: 5, requests: 100 },
        { period: 'month', tokens: 1_000_000, models: ['gpt-4o'], alert_at: [0.9, 0.5, 0.9] },
        { period: 'total', usd: 0.000000001 },
        { period: 'hour', requests: 0 },
        { period: 'week', usd: 1, hours: null },
      ],
    });
    expect(parsed.budgets).toEqual([
      {
        period: 'day',
        hours: null,
        usd: 5_000_000_000,
        tokens: null,
        requests: null,
        models: null,
        alertAt: [],
      },
      { period: 'hours', hours: 5, usd: null, tokens: null, requests: 100, models: null, alertAt: [] },
      {
        period: 'month',
        hours: null,
        usd: null,
        tokens: 1_000_000,
        requests: null,
        models: ['gpt-4o'],
        alertAt: [0.5, 0.9],
      },
      { period: 'total', hours: null, usd: 1, tokens: null, requests: null, models: null, alertAt: [] },
      { period: 'hour', hours: null, usd: null, tokens: null, requests: 0, models: null, alertAt: [] },
      {
        period: 'week',
        hours: null,
        usd: 1_000_000_000,
        tokens: null,
        requests: null,
        models: null,
        alertAt: [],
      },
    ]);
  });

  it.each([
    ['no limit set', [{ period: 'day' }], 'budgets[0]', 'needs a limit: usd, tokens or requests'],
    [
      'no limit but nulls',
      [{ period: 'day', usd: null, tokens: null, requests: null }],
      'budgets[0]',
      'needs a limit: usd, tokens or requests',
    ],
    ['hours below 1', [{ period: 'hours', hours: 0, usd: 1 }], 'budgets[0].hours', undefined],
    ['hours above 720', [{ period: 'hours', hours: 721, usd: 1 }], 'budgets[0].hours', undefined],
    ['hours of a fraction', [{ period: 'hours', hours: 1.5, usd: 1 }], 'budgets[0].hours', undefined],
    [
      'hours without period "hours"',
      [{ period: 'day', hours: 5, usd: 1 }],
      'budgets[0].hours',
      'is only taken with period "hours"',
    ],
    [
      'period "hours" without hours',
      [{ period: 'hours', usd: 1 }],
      'budgets[0].hours',
      'is required with period "hours"',
    ],
    ['an unknown period', [{ period: 'fortnight', usd: 1 }], 'budgets[0].period', undefined],
    ['a missing period', [{ usd: 1 }], 'budgets[0].period', 'is required'],
    [
      'an unknown member',
      [{ period: 'day', usd: 1, currency: 'EUR' }],
      'budgets[0].currency',
      'unknown field',
    ],
    ['a negative usd', [{ period: 'day', usd: -1 }], 'budgets[0].usd', undefined],
    ['tokens of a fraction', [{ period: 'day', tokens: 1.5 }], 'budgets[0].tokens', undefined],
    ['requests as text', [{ period: 'day', requests: '5' }], 'budgets[0].requests', undefined],
    ['an alert at 0', [{ period: 'day', usd: 1, alert_at: [0] }], 'budgets[0].alert_at[0]', undefined],
    ['an alert past 1', [{ period: 'day', usd: 1, alert_at: [1.5] }], 'budgets[0].alert_at[0]', undefined],
    ['an empty models list', [{ period: 'day', usd: 1, models: [] }], 'budgets[0].models', undefined],
    [
      'a model with a modifier',
      [{ period: 'day', usd: 1, models: ['gpt-4o@high'] }],
      'budgets[0].models[0]',
      undefined,
    ],
    ['a budget that is not an object', ['day'], 'budgets[0]', undefined],
    ['the second budget wrong', [{ period: 'day', usd: 1 }, { period: 'day' }], 'budgets[1]', undefined],
  ])('refuses %s, naming the member', (_name, budgets, field, problem) => {
    const refused = refusal(budgets);
    expect(refused?.field).toBe(field);
    if (problem !== undefined) expect(refused?.problem).toBe(problem);
  });

  it('refuses more than 32 windows', () => {
    expect(refusal(Array.from({ length: 33 }, () => ({ period: 'day', usd: 1 })))?.field).toBe('budgets');
  });
});
