import type SqliteDatabase from 'better-sqlite3';
import type { Kysely, Selectable } from 'kysely';
import type { Database, UsageLogsTable } from './schema.js';
import { toUsageLogColumns, usageLogColumnNames } from './usage-log-columns.js';

export interface UsageLogRecord {
  id: number;
  requestId: string;
  createdAt: number;
  userId: number;
  keyId: number;
  channelId: number | null;
  model: string;
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
}

export type NewUsageLog = Omit<UsageLogRecord, 'id'>;

export interface UsageLogFilter {
  userId?: number;
  keyId?: number;
  model?: string;
  limit: number;
  offset: number;
}

export class UsageLogsRepository {
  private readonly insertBatch: ((logs: readonly NewUsageLog[]) => void) | undefined;

  /** With the SQLite connection at hand, batches are written with one prepared statement. */
  constructor(
    private readonly db: Kysely<Database>,
    sqlite?: SqliteDatabase.Database,
  ) {
    if (sqlite) {
      const columns = usageLogColumnNames;
      const insert = sqlite.prepare(
        `insert into usage_logs (${columns.join(', ')}) values (${columns.map((column) => `@${column}`).join(', ')})`,
      );
      this.insertBatch = sqlite.transaction((logs: readonly NewUsageLog[]) => {
        for (const log of logs) insert.run(toUsageLogColumns(log));
      });
    }
  }

  /** Records written outside the money path (imports, tests), in one transaction per batch. */
  async insertMany(logs: readonly NewUsageLog[]): Promise<void> {
    if (logs.length === 0) return;
    if (this.insertBatch) return this.insertBatch(logs);
    await this.db.insertInto('usage_logs').values(logs.map(toUsageLogColumns)).execute();
  }

  async list(filter: UsageLogFilter): Promise<UsageLogRecord[]> {
    let query = this.db.selectFrom('usage_logs').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
    if (filter.model !== undefined) query = query.where('model', '=', filter.model);
    const rows = await query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    return rows.map(toUsageLog);
  }
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
  };
}
