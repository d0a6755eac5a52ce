import { nanoToUsd } from '../billing/money.js';
import type { UsageTotals } from '../store/usage-logs-repository.js';
import type { HealthSummary, StatsPoint } from '../store/usage-stats-repository.js';

/** One point of a `/api/stats` series; cost in USD. */
export function serializeStatsPoint(point: StatsPoint) {
  return {
    t: point.t,
    group: point.group,
    requests: point.requests,
    errors: point.errors,
    prompt_tokens: point.promptTokens,
    completion_tokens: point.completionTokens,
    cost: nanoToUsd(point.cost),
    avg_latency_ms: point.avgLatencyMs,
    avg_first_byte_ms: point.avgFirstByteMs,
  };
}

/** The `total` member of a log list: sums over every matching record, not only the page. */
export function serializeUsageTotals(totals: UsageTotals) {
  return {
    requests: totals.requests,
    prompt_tokens: totals.promptTokens,
    completion_tokens: totals.completionTokens,
    cost: nanoToUsd(totals.cost),
  };
}

/** Success and latency; `success_rate` is the share of status-200 records, null without records. */
export function serializeHealthSummary(summary: HealthSummary) {
  return {
    requests: summary.requests,
    errors: summary.errors,
    success_rate: summary.requests === 0 ? null : (summary.requests - summary.errors) / summary.requests,
    avg_latency_ms: summary.avgLatencyMs,
    p50_latency_ms: summary.p50LatencyMs,
    avg_first_byte_ms: summary.avgFirstByteMs,
  };
}
