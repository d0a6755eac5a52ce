import { expect } from 'vitest';

/**
 * The spend limits of keys, users and groups on the wire (admin-api section 10): budgets with
 * every member given, so a read returns them exactly as written, with `usd` down to the nano-dollar.
 */
export const WIRE_BUDGETS = [
  {
    period: 'day',
    hours: null,
    usd: 12.345678901,
    tokens: null,
    requests: 100,
    models: ['gpt-4o'],
    alert_at: [0.5, 0.9],
  },
  {
    period: 'hours',
    hours: 5,
    usd: 0.000000001,
    tokens: 1_000_000,
    requests: null,
    models: null,
    alert_at: [],
  },
  { period: 'total', hours: null, usd: null, tokens: null, requests: 1, models: null, alert_at: [1] },
];

/** A budget written with only some members, and how reads show it: defaults filled, alerts sorted once each. */
export const SHORT_BUDGET = { period: 'week', usd: 0.1, alert_at: [0.9, 0.5, 0.9] };
export const SHORT_BUDGET_READ = {
  period: 'week',
  hours: null,
  usd: 0.1,
  tokens: null,
  requests: null,
  models: null,
  alert_at: [0.5, 0.9],
};
/** `SHORT_BUDGET`'s `usd` as stored. */
export const SHORT_BUDGET_NANO_USD = 100_000_000;

/** `[what, budgets, the member named, the problem stated where it is ours rather than zod's]` */
export const REFUSED_BUDGETS: [string, unknown, string, string | undefined][] = [
  ['a budget without any limit', [{ period: 'day' }], 'budgets[0]', 'needs a limit: usd, tokens or requests'],
  [
    'a budget whose limits are all null',
    [{ period: 'month', usd: null, tokens: null, requests: null }],
    'budgets[0]',
    'needs a limit: usd, tokens or requests',
  ],
  ['hours below 1', [{ period: 'hours', hours: 0, usd: 1 }], 'budgets[0].hours', undefined],
  ['hours above 720', [{ period: 'hours', hours: 721, usd: 1 }], 'budgets[0].hours', undefined],
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
  [
    'an unknown member inside a budget',
    [{ period: 'day', usd: 1, currency: 'EUR' }],
    'budgets[0].currency',
    'unknown field',
  ],
  [
    'a negative usd in the second budget',
    [
      { period: 'day', usd: 1 },
      { period: 'week', usd: -1 },
    ],
    'budgets[1].usd',
    undefined,
  ],
  ['an alert past 1', [{ period: 'day', usd: 1, alert_at: [1.5] }], 'budgets[0].alert_at[0]', undefined],
  ['budgets that are not an array', { period: 'day', usd: 1 }, 'budgets', undefined],
  ['null budgets', null, 'budgets', undefined],
];

/** `[what, max_concurrency]`: each refused, since the cap is a whole number of requests, at least 1, or null. */
export const REFUSED_MAX_CONCURRENCY: [string, unknown][] = [
  ['zero', 0],
  ['a fraction', 1.5],
  ['text', '4'],
  ['past the 32-bit column', 2 ** 31],
];

/**
 * A management API 400 `invalid_request` naming `field` (nested members as `budgets[0].hours`)
 * in the message, with the top-level member as `param`.
 */
export function expectInvalidField(
  response: { status: number; body: any },
  field: string,
  problem?: string,
): void {
  expect(response.status).toBe(400);
  expect(response.body.error).toMatchObject({
    type: 'gateway_api_error',
    code: 'invalid_request',
    param: field.split(/[.[]/)[0],
  });
  expect(response.body.error.message).toContain(`field "${field}": ${problem ?? ''}`);
}
