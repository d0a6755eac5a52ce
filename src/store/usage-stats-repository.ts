import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { readAggregate, whereUsageMatches, type UsageLogConditions } from './usage-log-conditions.js';

export type StatsBucket = 'hour' | 'day';
export type StatsGrouping = 'model' | 'channel' | 'user' | 'key';

const BUCKET_SECONDS: Record<StatsBucket, number> = { hour: 3600, day: 86_400 };
const GROUP_COLUMN = {
  model: 'model',
  channel: 'channel_id',
  user: 'user_id',
  key: 'key_id',
} as const satisfies Record<StatsGrouping, string>;

/** One bucket of one group: sums and averages over the usage records in it. */
export interface StatsPoint {
  /** Bucket start, Unix seconds (UTC hours and days). */
  t: number;
  /** The model name, or the channel, user or key id; null for records without a channel. */
  group: string | number | null;
  requests: number;
  /** Records whose status is not 200. */
  errors: number;
  promptTokens: number;
  completionTokens: number;
  /** nano-USD */
  cost: number;
  avgLatencyMs: number | null;
  avgFirstByteMs: number | null;
}

/** Success and latency of a set of records, such as one channel's over a window. */
export interface HealthSummary {
  requests: number;
  errors: number;
  avgLatencyMs: number | null;
  /** The lower median. */
  p50LatencyMs: number | null;
  avgFirstByteMs: number | null;
}

/** Aggregates over `usage_logs` for the console's charts, in SQL that SQLite and PostgreSQL share. */
export class UsageStatsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Buckets with at least one record, oldest first; within a bucket, no channel first, then ids or names in order. */
  async series(options: {
    conditions: UsageLogConditions;
    bucket: StatsBucket;
    groupBy: StatsGrouping;
  }): Promise<StatsPoint[]> {
    // A literal, not a parameter: PostgreSQL must see the same expression in SELECT and GROUP BY.
    const bucketStart = sql<number>`created_at - created_at % ${sql.lit(BUCKET_SECONDS[options.bucket])}`;
    const groupColumn = sql.ref(GROUP_COLUMN[options.groupBy]);
    const rows = await whereUsageMatches(
      this.db
        .selectFrom('usage_logs')
        .select((eb) => [
          bucketStart.as('t'),
          sql<string | number | null>`${groupColumn}`.as('group_key'),
          eb.fn.countAll().as('requests'),
          sql<number>`sum(case when status_code <> 200 then 1 else 0 end)`.as('errors'),
          eb.fn.sum('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum('completion_tokens').as('completion_tokens'),
          eb.fn.sum('cost').as('cost'),
          eb.fn.avg('latency_ms').as('avg_latency_ms'),
          eb.fn.avg('first_byte_ms').as('avg_first_byte_ms'),
        ]),
      options.conditions,
    )
      .groupBy([bucketStart, groupColumn])
      .execute();
    const points = rows.map((row) => ({
      t: Number(row.t),
      group: options.groupBy === 'model' || row.group_key === null ? row.group_key : Number(row.group_key),
      requests: readAggregate(row.requests),
      errors: readAggregate(row.errors),
      promptTokens: readAggregate(row.prompt_tokens),
      completionTokens: readAggregate(row.completion_tokens),
      cost: readAggregate(row.cost),
      avgLatencyMs: readAverage(row.avg_latency_ms),
      avgFirstByteMs: readAverage(row.avg_first_byte_ms),
    }));
    // Sorted here: the databases disagree on where NULL goes and may collate text differently.
    return points.sort((a, b) => a.t - b.t || compareGroups(a.group, b.group));
  }

  /** Requests, errors and latency over the matching records, whole or per model. */
  async healthSummary(conditions: UsageLogConditions): Promise<HealthSummary> {
    const row = await whereUsageMatches(
      this.db
        .selectFrom('usage_logs')
        .select((eb) => [
          eb.fn.countAll().as('requests'),
          sql<number>`sum(case when status_code <> 200 then 1 else 0 end)`.as('errors'),
          eb.fn.avg('latency_ms').as('avg_latency_ms'),
          eb.fn.avg('first_byte_ms').as('avg_first_byte_ms'),
        ]),
      conditions,
    ).executeTakeFirstOrThrow();
    const requests = readAggregate(row.requests);
    return {
      requests,
      errors: readAggregate(row.errors),
      avgLatencyMs: readAverage(row.avg_latency_ms),
      p50LatencyMs: requests === 0 ? null : await this.medianLatency(conditions, requests),
      avgFirstByteMs: readAverage(row.avg_first_byte_ms),
    };
  }

  /** The models among the matching records, most used first. */
  async models(conditions: UsageLogConditions): Promise<string[]> {
    const rows = await whereUsageMatches(
      this.db.selectFrom('usage_logs').select((eb) => ['model', eb.fn.countAll().as('requests')]),
      conditions,
    )
      .groupBy('model')
      .orderBy('requests', 'desc')
      .orderBy('model')
      .execute();
    return rows.map((row) => row.model);
  }

  /** Portable median: neither SQLite nor Kysely has `percentile_cont`, so read the middle row. */
  private async medianLatency(conditions: UsageLogConditions, count: number): Promise<number | null> {
    const row = await whereUsageMatches(this.db.selectFrom('usage_logs').select('latency_ms'), conditions)
      .orderBy('latency_ms')
      .limit(1)
      .offset(Math.floor((count - 1) / 2))
      .executeTakeFirst();
    return row ? Number(row.latency_ms) : null;
  }
}

/** No channel first, then ids in order, or model names by code unit. */
function compareGroups(a: StatsPoint['group'], b: StatsPoint['group']): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** Averages in whole milliseconds; null when no record had a value. */
function readAverage(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Math.round(Number(value));
}
