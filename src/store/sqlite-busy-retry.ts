import { setTimeout as delay } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

/**
 * Several processes (cluster workers) write to one SQLite file. SQLite lets one writer in at a
 * time; the others wait in its busy handler (`busy_timeout`), which sleeps on the event loop. That
 * wait is kept short, enough for another worker's commit (well under a millisecond, as the commits
 * do not sync and do not checkpoint); a write still refused after it is tried again on a timer, so
 * the event loop keeps serving meanwhile, and `SQLITE_BUSY` never reaches a client unless the
 * database stays locked for `RETRY_FOR_MS` on end.
 */
export const BUSY_TIMEOUT_MS = 20;
const RETRY_FOR_MS = 30_000;
const FIRST_RETRY_MS = 2;
const LONGEST_RETRY_MS = 100;

/** `SQLITE_BUSY` and its extended codes (`SQLITE_BUSY_SNAPSHOT`, ...). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The wait before the next try of a write refused as busy, or undefined to give up. */
export class BusyRetries {
  private startedAt: number | undefined;
  private attempts = 0;

  nextDelay(): number | undefined {
    const now = Date.now();
    this.startedAt ??= now;
    if (now - this.startedAt >= RETRY_FOR_MS) return undefined;
    this.attempts += 1;
    return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.attempts - 1));
  }
}

export async function retryWhileBusy<T>(run: () => Promise<T>): Promise<T> {
  const retries = new BusyRetries();
  for (;;) {
    try {
      return await run();
    } catch (error) {
      const wait = isBusyError(error) ? retries.nextDelay() : undefined;
      if (wait === undefined) throw error;
      await delay(wait);
    }
  }
}

/**
 * Kysely's SQLite dialect with two changes for several writers: transactions begin `immediate`
 * (the write lock is taken at the start, where waiting for it is safe, instead of on the first
 * write, where SQLite refuses at once to avoid a deadlock), and a statement or a `begin` refused as
 * busy is retried. Statements inside a transaction are not retried: the transaction holds the lock.
 */
export class SqliteStoreDialect extends SqliteDialect {
  constructor(
    private readonly database: SqliteDatabase.Database,
    config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new BusyRetryingDriver(super.createDriver(), this.database);
  }
}

class BusyRetryingDriver implements Driver {
  private wrapped: { inner: DatabaseConnection; outer: DatabaseConnection } | undefined;

  constructor(
    private readonly inner: Driver,
    private readonly database: SqliteDatabase.Database,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    if (this.wrapped?.inner !== connection)
      this.wrapped = { inner: connection, outer: this.wrap(connection) };
    return this.wrapped.outer;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.savepoint) throw new Error('savepoints are not supported');
    return this.inner.savepoint(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.rollbackToSavepoint) throw new Error('savepoints are not supported');
    return this.inner.rollbackToSavepoint(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    if (!this.inner.releaseSavepoint) throw new Error('savepoints are not supported');
    return this.inner.releaseSavepoint(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  private wrap(connection: DatabaseConnection): DatabaseConnection {
    const database = this.database;
    return {
      executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        // The SQLite connection runs statements synchronously; a refusal throws before any await.
        const run = async () => connection.executeQuery<R>(query);
        return database.inTransaction ? run() : retryWhileBusy(run);
      },
      streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        return connection.streamQuery<R>(query, chunkSize);
      },
    };
  }
}
