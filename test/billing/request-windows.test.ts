import { describe, expect, it } from 'vitest';
import type { Budget } from '../../src/billing/budgets/budget.js';
import { requestWindows, type LimitedScope } from '../../src/billing/budgets/request-windows.js';

const budget = (overrides: Partial<Budget>): Budget => ({
  period: 'day',
  hours: null,
  usd: null,
  tokens: null,
  requests: null,
  models: null,
  alertAt: [],
  ...overrides,
});

const request = {
  model: 'gpt-4o',
  tokens: 40,
  nowMs: Date.UTC(2026, 11, 6, 10),
  timeZone: 'UTC',
  events: true,
};

describe('the windows of a request', () => {
  it('are none without budgets or caps', () => {
    const plain: LimitedScope = { scope: 'key', id: 1, budgets: [], maxConcurrency: null };
    expect(requestWindows([plain], request)).toBeUndefined();
  });

  it("are each scope's budgets that take the model, then its concurrency cap", () => {
    const key: LimitedScope = {
      scope: 'key',
      id: 7,
      budgets: [budget({ requests: 5 }), budget({ usd: 1, models: ['claude-sonnet-4-5'] })],
      maxConcurrency: 2,
    };
    const group: LimitedScope = {
      scope: 'group',
      id: 'team',
      budgets: [budget({ period: 'total', usd: 9 })],
      maxConcurrency: null,
    };
    const windows = requestWindows([key, group], request)!.windows;
    expect(windows.map((window) => window.key)).toEqual([
      'key:7|day',
      'key:7|concurrency',
      'group:team|total',
    ]);
    expect(windows[0]).toMatchObject({
      start: Date.UTC(2026, 11, 6) / 1000,
      end: Date.UTC(2026, 11, 7) / 1000,
    });
  });

  it('count two budgets of one period and models in one window, with the lower of each limit and both alerts', () => {
    const key: LimitedScope = {
      scope: 'key',
      id: 3,
      budgets: [
        budget({ usd: 5_000_000_000, requests: 100, alertAt: [0.5] }),
        budget({ usd: 2_000_000_000, tokens: 1_000, alertAt: [0.9, 0.5] }),
      ],
      maxConcurrency: null,
    };
    const windows = requestWindows([key], request)!.windows;
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({
      key: 'key:3|day',
      usd: 2_000_000_000,
      tokens: 1_000,
      requests: 100,
      alertAt: [0.5, 0.9],
    });
  });
});
