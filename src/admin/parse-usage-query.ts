import type { UsageLogConditions, UsageStatusFilter } from '../store/usage-log-conditions.js';
import type { StatsBucket, StatsGrouping } from '../store/usage-stats-repository.js';
import { invalidField } from './admin-error.js';
import { readIntegerParameter, readStringParameter } from './parse-query.js';

const ANY_ID = { min: 0, max: Number.MAX_SAFE_INTEGER };
const ANY_TIME = { min: 0, max: Number.MAX_SAFE_INTEGER };
const DAY_S = 86_400;
const BUCKET_SECONDS: Record<StatsBucket, number> = { hour: 3600, day: DAY_S };
const BUCKETS: readonly StatsBucket[] = ['hour', 'day'];
const GROUPINGS: readonly StatsGrouping[] = ['model', 'channel', 'user', 'key'];
/** Keeps one chart's answer bounded: about 13 months of hours, or 27 years of days. */
const MAX_BUCKETS = 10_000;

/**
 * The usage-record filters of `/api/logs` and `/api/stats`: `user_id`, `key_id`, `channel_id`,
 * `model`, `status` (`ok`, `error` or a status code) and the window `from`..`to` (Unix seconds,
 * both inclusive).
 */
export function parseUsageConditions(query: unknown): UsageLogConditions {
  return {
    userId: readIntegerParameter(query, 'user_id', ANY_ID),
    keyId: readIntegerParameter(query, 'key_id', ANY_ID),
    channelId: readIntegerParameter(query, 'channel_id', ANY_ID),
    model: readStringParameter(query, 'model'),
    status: readStatus(query),
    ...readWindow(query),
  };
}

/** A window that defaults to the last 24 hours up to now; given alone, `from` runs to now and `to` starts a day before. */
export function parseTimeWindow(query: unknown, now: number): { from: number; to: number } {
  const given = readWindow(query);
  const to = given.to ?? Math.max(now, given.from ?? 0);
  return { from: given.from ?? Math.max(0, to - DAY_S), to };
}

export interface StatsQuery {
  conditions: UsageLogConditions;
  bucket: StatsBucket;
  groupBy: StatsGrouping;
}

/** `/api/stats`: the usage filters, a window (default the last 24 h), `bucket` (hour) and `group_by` (model). */
export function parseStatsQuery(query: unknown, now: number): StatsQuery {
  const conditions = { ...parseUsageConditions(query), ...parseTimeWindow(query, now) };
  const bucket = readChoice(query, 'bucket', BUCKETS) ?? 'hour';
  const groupBy = readChoice(query, 'group_by', GROUPINGS) ?? 'model';
  const buckets =
    Math.floor(conditions.to / BUCKET_SECONDS[bucket]) - Math.floor(conditions.from / BUCKET_SECONDS[bucket]);
  if (buckets >= MAX_BUCKETS) {
    throw invalidField('from', `the window spans more than ${MAX_BUCKETS} buckets of one ${bucket}`);
  }
  return { conditions, bucket, groupBy };
}

function readWindow(query: unknown): { from: number | undefined; to: number | undefined } {
  const from = readIntegerParameter(query, 'from', ANY_TIME);
  const to = readIntegerParameter(query, 'to', ANY_TIME);
  if (from !== undefined && to !== undefined && from > to) throw invalidField('from', 'must not be after to');
  return { from, to };
}

function readStatus(query: unknown): UsageStatusFilter | undefined {
  const raw = readStringParameter(query, 'status');
  if (raw === undefined) return undefined;
  if (raw === 'ok' || raw === 'error') return raw;
  if (/^\d{1,3}$/.test(raw) && Number(raw) <= 599) return Number(raw);
  throw invalidField('status', 'must be "ok", "error" or a status code');
}

function readChoice<T extends string>(query: unknown, name: string, choices: readonly T[]): T | undefined {
  const raw = readStringParameter(query, name);
  if (raw === undefined) return undefined;
  const choice = choices.find((candidate) => candidate === raw);
  if (!choice) throw invalidField(name, `must be one of ${choices.join(', ')}`);
  return choice;
}
