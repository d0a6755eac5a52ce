import type { SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.js';

/** `ok`: status 200; `error`: any other status (0 included: interrupted); a number: that status. */
export type UsageStatusFilter = 'ok' | 'error' | number;

/** Which usage records a list, a total or a chart covers; every member optional. Times inclusive. */
export interface UsageLogConditions {
  userId?: number | undefined;
  keyId?: number | undefined;
  channelId?: number | undefined;
  model?: string | undefined;
  status?: UsageStatusFilter | undefined;
  /** Unix seconds, inclusive. */
  from?: number | undefined;
  /** Unix seconds, inclusive. */
  to?: number | undefined;
}

/** Adds the conditions to a query over `usage_logs`. */
export function whereUsageMatches<Output>(
  query: SelectQueryBuilder<Database, 'usage_logs', Output>,
  conditions: UsageLogConditions,
): SelectQueryBuilder<Database, 'usage_logs', Output> {
  let matching = query;
  if (conditions.userId !== undefined) matching = matching.where('user_id', '=', conditions.userId);
  if (conditions.keyId !== undefined) matching = matching.where('key_id', '=', conditions.keyId);
  if (conditions.channelId !== undefined) matching = matching.where('channel_id', '=', conditions.channelId);
  if (conditions.model !== undefined) matching = matching.where('model', '=', conditions.model);
  if (conditions.from !== undefined) matching = matching.where('created_at', '>=', conditions.from);
  if (conditions.to !== undefined) matching = matching.where('created_at', '<=', conditions.to);
  const { status } = conditions;
  if (status === 'ok') matching = matching.where('status_code', '=', 200);
  else if (status === 'error') matching = matching.where('status_code', '!=', 200);
  else if (status !== undefined) matching = matching.where('status_code', '=', status);
  return matching;
}

/** Aggregates arrive as numbers (SQLite), or as text for PostgreSQL's `numeric` sums; null over no rows. */
export function readAggregate(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}
