import { describe, expect, it } from 'vitest';
import type { WindowCharge } from '../../src/billing/budgets/window-charge.js';
import { fullBudgetWindow } from '../../src/http/realtime/full-budget-window.js';
import type { StoredWindow } from '../../src/store/budget-windows-repository.js';

const NOW = 1_800_000_000;
const window = (fields: Partial<WindowCharge>): WindowCharge => ({
  key: 'key:1|day',
  scope: 'key',
  owner: 1,
  period: 'day',
  start: NOW - 3_600,
  end: NOW + 3_600,
  sessionSeconds: null,
  usd: null,
  tokens: null,
  requests: null,
  alertAt: [],
  ...fields,
});
const stored = (key: string, counts: Partial<StoredWindow>) =>
  new Map<string, StoredWindow>([
    [
      key,
      {
        start: NOW - 3_600,
        usedUsd: 0,
        usedTokens: 0,
        usedRequests: 0,
        heldUsd: 0,
        heldTokens: 0,
        heldRequests: 0,
        ...counts,
      },
    ],
  ]);

describe('fullBudgetWindow', () => {
  it('full when cost or tokens, settled and held, reach the limit, or no request more fits', () => {
    expect(
      fullBudgetWindow([window({ usd: 100 })], stored('key:1|day', { usedUsd: 60, heldUsd: 40 }), NOW),
    ).toEqual({
      window: 0,
      dimension: 'usd',
      windowStart: NOW - 3_600,
      used: 100,
    });
    expect(
      fullBudgetWindow([window({ usd: 100 })], stored('key:1|day', { usedUsd: 99 }), NOW),
    ).toBeUndefined();
    expect(
      fullBudgetWindow([window({ tokens: 10 })], stored('key:1|day', { usedTokens: 10 }), NOW)?.dimension,
    ).toBe('tokens');
    expect(
      fullBudgetWindow(
        [window({ requests: 2 })],
        stored('key:1|day', { usedRequests: 1, heldRequests: 1 }),
        NOW,
      )?.dimension,
    ).toBe('requests');
  });

  it('a window whose time is past has room; so has one never used', () => {
    const past = stored('key:1|day', { start: NOW - 100_000, usedUsd: 500 });
    expect(fullBudgetWindow([window({ usd: 100 })], past, NOW)).toBeUndefined();
    expect(fullBudgetWindow([window({ usd: 100 })], new Map(), NOW)).toBeUndefined();
    const session = window({
      key: 'key:1|hours:5',
      period: 'hours',
      start: null,
      end: null,
      sessionSeconds: 18_000,
      usd: 1,
    });
    expect(
      fullBudgetWindow([session], stored('key:1|hours:5', { start: NOW - 18_000, usedUsd: 5 }), NOW),
    ).toBeUndefined();
    expect(
      fullBudgetWindow([session], stored('key:1|hours:5', { start: NOW - 100, usedUsd: 5 }), NOW)?.dimension,
    ).toBe('usd');
  });

  it('concurrency caps are not budgets: they are the session hold’s', () => {
    const slots = window({
      key: 'key:1|concurrency',
      period: 'concurrency',
      start: 0,
      end: null,
      requests: 1,
    });
    expect(
      fullBudgetWindow([slots], stored('key:1|concurrency', { start: 0, heldRequests: 5 }), NOW),
    ).toBeUndefined();
  });
});
