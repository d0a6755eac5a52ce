import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UsageLogsTable } from './schema.js';
import { readAggregate, whereUsageMatches, type UsageLogConditions } from './usage-log-conditions.js';

export interface UsageLogRecord {
  id: number;
  requestId: string;
  createdAt: number;
  userId: number;
  keyId: number;
  channelId: number | null;
  model: string;
  /** The model the client named, where it differs from `model`; null otherwise. */
  requestedModel: string | null;
  endpoint: string;
  stream: boolean;
  statusCode: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** nano-USD */
  cost: number;
  latencyMs: number;
  firstByteMs: number | null;
  error: string | null;
  /** Seconds of input audio billed at `per_minute` (admin-api section 14); null when not audio. */
  audioSeconds: number | null;
  /** Characters of speech input billed at `per_million_characters`; null when not speech. */
  characters: number | null;
}

/** A record to store; the members a request may lack (not every request is audio) are optional. */
export type NewUsageLog = Omit<UsageLogRecord, 'id' | 'requestedModel' | 'audioSeconds' | 'characters'> &
  Partial<Pick<UsageLogRecord, 'requestedModel' | 'audioSeconds' | 'characters'>>;

export interface UsageLogFilter extends UsageLogConditions {
  limit: number;
  offset: number;
}

/** Where a read in (created_at, id) order stopped: the last record it returned. */
export interface UsageLogCursor {
  createdAt: number;
  id: number;
}

/** Sums over every record a filter matches, not only one page. */
export interface UsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** nano-USD */
  cost: number;
}

const ROWS_PER_INSERT = 500;

export class UsageLogsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Records written outside the money path (imports, tests), a few hundred rows per statement
   * (SQLite bounds the parameters of one statement). No transaction around them: on SQLite it would
   * take in the money moves that group commit applies on the same connection meanwhile.
   */
  async insertMany(logs: readonly NewUsageLog[]): Promise<void> {
    for (let start = 0; start < logs.length; start += ROWS_PER_INSERT) {
      const rows = logs.slice(start, start + ROWS_PER_INSERT).map(toColumns);
      await this.db.insertInto('usage_logs').values(rows).execute();
    }
  }

  async find(id: number): Promise<UsageLogRecord | undefined> {
    const row = await this.db.selectFrom('usage_logs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUsageLog(row);
  }

  async list(filter: UsageLogFilter): Promise<UsageLogRecord[]> {
    const query = whereUsageMatches(this.db.selectFrom('usage_logs').selectAll(), filter);
    const rows = await query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    return rows.map(toUsageLog);
  }

  /**
   * Up to `limit` matching records after `after`, oldest first by (created_at, id): one page of a
   * keyset read, whose cost does not grow with how many pages came before (no `offset`). The index
   * on `created_at` serves both stores: SQLite's holds the rowid (`id`) after the time, so a page
   * comes in order without a sort; PostgreSQL sorts within each second. Either way a page starts at
   * the cursor's second, so only the records sharing that second are passed over again.
   */
  async listAfter(options: {
    conditions: UsageLogConditions;
    after: UsageLogCursor | undefined;
    limit: number;
  }): Promise<UsageLogRecord[]> {
    const { after } = options;
    let query = whereUsageMatches(this.db.selectFrom('usage_logs').selectAll(), options.conditions);
    if (after) {
      query = query.where((eb) =>
        eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after.createdAt, after.id)),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit).execute();
    return rows.map(toUsageLog);
  }

  async totals(conditions: UsageLogConditions): Promise<UsageTotals> {
    const row = await whereUsageMatches(
      this.db
        .selectFrom('usage_logs')
        .select((eb) => [
          eb.fn.countAll().as('requests'),
          eb.fn.sum('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum('completion_tokens').as('completion_tokens'),
          eb.fn.sum('cost').as('cost'),
        ]),
      conditions,
    ).executeTakeFirstOrThrow();
    return {
      requests: readAggregate(row.requests),
      promptTokens: readAggregate(row.prompt_tokens),
      completionTokens: readAggregate(row.completion_tokens),
      cost: readAggregate(row.cost),
    };
  }
}

function toColumns(log: NewUsageLog): Insertable<UsageLogsTable> {
  return {
    request_id: log.requestId,
    created_at: log.createdAt,
    user_id: log.userId,
    key_id: log.keyId,
    channel_id: log.channelId,
    model: log.model,
    requested_model: log.requestedModel ?? null,
    endpoint: log.endpoint,
    stream: Number(log.stream),
    status_code: log.statusCode,
    prompt_tokens: log.promptTokens,
    completion_tokens: log.completionTokens,
    cached_tokens: log.cachedTokens,
    cache_write_tokens: log.cacheWriteTokens,
    reasoning_tokens: log.reasoningTokens,
    cost: log.cost,
    latency_ms: log.latencyMs,
    first_byte_ms: log.firstByteMs,
    error: log.error,
    audio_seconds: log.audioSeconds ?? null,
    characters: log.characters ?? null,
  };
}

function toUsageLog(row: Selectable<UsageLogsTable>): UsageLogRecord {
  return {
    id: Number(row.id),
    requestId: row.request_id,
    createdAt: Number(row.created_at),
    userId: Number(row.user_id),
    keyId: Number(row.key_id),
    channelId: row.channel_id === null ? null : Number(row.channel_id),
    model: row.model,
    requestedModel: row.requested_model,
    endpoint: row.endpoint,
    stream: Boolean(row.stream),
    statusCode: row.status_code,
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    cachedTokens: Number(row.cached_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
    reasoningTokens: Number(row.reasoning_tokens),
    cost: Number(row.cost),
    latencyMs: row.latency_ms,
    firstByteMs: row.first_byte_ms,
    error: row.error,
    audioSeconds: row.audio_seconds,
    characters: row.characters,
  };
}
