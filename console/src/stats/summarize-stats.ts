import type { StatsRow } from '../api/types';
import type { StatsWindow } from './stats-window';

export interface StatsFigures {
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  /** errors / requests; 0 without requests. */
  errorRate: number;
  /** Mean latency weighted by requests, when the rows carry one. */
  latencyMs: number | null;
}

export interface TimePoint extends StatsFigures {
  t: number;
}

export interface GroupFigures extends StatsFigures {
  group: string | number | null;
}

/** Totals of a set of rows. */
export function sumStats(rows: readonly StatsRow[]): StatsFigures {
  let requests = 0;
  let errors = 0;
  let promptTokens = 0;
  let completionTokens = 0;
  let cost = 0;
  let latencyWeight = 0;
  let latencySum = 0;
  for (const row of rows) {
    requests += row.requests;
    errors += row.errors;
    promptTokens += row.prompt_tokens;
    completionTokens += row.completion_tokens;
    cost += row.cost;
    if (typeof row.avg_latency_ms === 'number' && row.requests > 0) {
      latencySum += row.avg_latency_ms * row.requests;
      latencyWeight += row.requests;
    }
  }
  return {
    requests,
    errors,
    promptTokens,
    completionTokens,
    // Sums of floats: rounded to the API's nano-dollar precision.
    cost: Math.round(cost * 1e9) / 1e9,
    errorRate: requests > 0 ? errors / requests : 0,
    latencyMs: latencyWeight > 0 ? latencySum / latencyWeight : null,
  };
}

/** One point per bucket of the window, groups added together; buckets without rows are zero. */
export function sumStatsByTime(rows: readonly StatsRow[], window: StatsWindow): TimePoint[] {
  const byBucket = new Map<number, StatsRow[]>();
  for (const row of rows) {
    const t = Math.floor(row.t / window.step) * window.step;
    byBucket.set(t, [...(byBucket.get(t) ?? []), row]);
  }
  const points: TimePoint[] = [];
  const first = Math.floor(window.from / window.step) * window.step;
  for (let t = first; t <= window.to; t += window.step) {
    points.push({ t, ...sumStats(byBucket.get(t) ?? []) });
  }
  return points;
}

/** One entry per group (model, channel, ...), busiest first. */
export function sumStatsByGroup(rows: readonly StatsRow[]): GroupFigures[] {
  const byGroup = new Map<string, { group: string | number | null; rows: StatsRow[] }>();
  for (const row of rows) {
    const key = JSON.stringify(row.group);
    const entry = byGroup.get(key) ?? { group: row.group, rows: [] };
    entry.rows.push(row);
    byGroup.set(key, entry);
  }
  return [...byGroup.values()]
    .map(({ group, rows: groupRows }) => ({ group, ...sumStats(groupRows) }))
    .sort((a, b) => b.requests - a.requests || b.cost - a.cost);
}
