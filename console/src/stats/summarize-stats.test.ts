import { describe, expect, it } from 'vitest';
import type { StatsRow } from '../api/types';
import { statsWindow } from './stats-window';
import { sumStats, sumStatsByGroup, sumStatsByTime } from './summarize-stats';

function row(fields: Partial<StatsRow> & Pick<StatsRow, 't' | 'group'>): StatsRow {
  return { requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, ...fields };
}

describe('statsWindow', () => {
  it('covers the last 24 whole hours up to now', () => {
    const now = 1_700_000_123;
    const window = statsWindow('24h', now);
    expect(window).toEqual({ from: 1_699_916_400, to: now, bucket: 'hour', step: 3600 });
    expect((now - window.from) / 3600).toBeLessThan(24);
  });

  it('covers the last 30 days in daily buckets', () => {
    const window = statsWindow('30d', 86_400 * 100 + 5);
    expect(window.from).toBe(86_400 * 71);
    expect(window.bucket).toBe('day');
  });
});

describe('summaries', () => {
  const rows = [
    row({
      t: 0,
      group: 'gpt-4o',
      requests: 3,
      errors: 1,
      prompt_tokens: 30,
      completion_tokens: 9,
      cost: 0.1,
    }),
    row({ t: 0, group: 'claude', requests: 1, prompt_tokens: 10, completion_tokens: 1, cost: 0.2 }),
    row({ t: 7200, group: 'gpt-4o', requests: 4, errors: 0, cost: 0.000000001 }),
  ];

  it('adds everything up, cost to the nano-dollar', () => {
    expect(sumStats(rows)).toEqual({
      requests: 8,
      errors: 1,
      promptTokens: 40,
      completionTokens: 10,
      cost: 0.300000001,
      errorRate: 1 / 8,
      latencyMs: null,
    });
  });

  it('fills every bucket of the window, empty ones with zero', () => {
    const points = sumStatsByTime(rows, { from: 0, to: 3 * 3600, bucket: 'hour', step: 3600 });
    expect(points.map((point) => [point.t, point.requests])).toEqual([
      [0, 4],
      [3600, 0],
      [7200, 4],
      [10_800, 0],
    ]);
    expect(points[1]?.errorRate).toBe(0);
  });

  it('groups by model, busiest first, with a weighted mean latency', () => {
    const groups = sumStatsByGroup([
      ...rows,
      row({ t: 0, group: 7, requests: 1, avg_latency_ms: 100 }),
      row({ t: 3600, group: 7, requests: 3, avg_latency_ms: 300 }),
    ]);
    expect(groups.map((group) => [group.group, group.requests])).toEqual([
      ['gpt-4o', 7],
      [7, 4],
      ['claude', 1],
    ]);
    expect(groups[1]?.latencyMs).toBe(250);
  });
});
