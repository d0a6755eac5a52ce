import { describe, expect, it } from 'vitest';
import type { BudgetUsage } from '../api/types';
import { formatDateTime } from '../format/format-time';
import { createI18n } from '../i18n/i18n';
import { budgetUsageBars } from './budget-usage-bars';

const RESETS_AT = 1_796_601_600;

const daily: BudgetUsage = {
  scope: 'key',
  id: 3,
  period: 'day',
  hours: null,
  usd: 5,
  tokens: null,
  requests: 1000,
  models: null,
  used_usd: 1.2,
  used_tokens: 4321,
  used_requests: 1000,
  window_start: RESETS_AT - 86_400,
  resets_at: RESETS_AT,
};

function barsOf(usage: BudgetUsage, language: 'en' | 'zh-CN' = 'en') {
  return budgetUsageBars(usage, { t: createI18n(language).t, language });
}

describe('budgetUsageBars', () => {
  it('makes one bar per limit set, with what is used of it and when it resets', () => {
    const resets = formatDateTime(RESETS_AT);
    expect(barsOf(daily)).toEqual([
      {
        dimension: 'usd',
        used: 1.2,
        limit: 5,
        share: 0.24,
        label: `day · $1.200000 of $5.000000 · resets ${resets}`,
      },
      {
        dimension: 'requests',
        used: 1000,
        limit: 1000,
        share: 1,
        label: `day · 1,000 of 1,000 requests · resets ${resets}`,
      },
    ]);
  });

  it('says a total never resets and a session window not open starts with the next request', () => {
    const total = { ...daily, period: 'total' as const, requests: null, window_start: null, resets_at: null };
    expect(barsOf(total).map((bar) => bar.label)).toEqual(['total · $1.200000 of $5.000000 · resets never']);
    const session = {
      ...daily,
      period: 'hours' as const,
      hours: 5,
      usd: null,
      requests: null,
      tokens: 1,
      used_tokens: 0,
      models: ['gpt-4o', 'o3'],
      window_start: null,
      resets_at: null,
    };
    expect(barsOf(session)).toEqual([
      {
        dimension: 'tokens',
        used: 0,
        limit: 1,
        share: 0,
        label: '5-hour window (gpt-4o, o3 only) · 0 of 1 token · starts with the next request',
      },
    ]);
  });

  it('counts a zero limit as full', () => {
    expect(barsOf({ ...daily, usd: 0, requests: null, used_usd: 0 })[0]?.share).toBe(1);
  });

  it('speaks Chinese', () => {
    expect(barsOf({ ...daily, period: 'week', requests: null }, 'zh-CN')[0]?.label).toBe(
      `每周 · 已用 $1.200000 / $5.000000 · ${formatDateTime(RESETS_AT)} 重置`,
    );
  });
});
