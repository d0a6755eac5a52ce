import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema.js';
import { BUSY_TIMEOUT_MS, SqliteStoreDialect } from './sqlite-busy-retry.js';
import { startWalCheckpointer, WAL_RESTART_FRAMES, type WalCheckpointer } from './wal-checkpointer.js';
import { loadOnFirstUse } from '../load-on-first-use.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL schema the tables live in, when one was chosen. */
  schema?: string | undefined;
  /** The SQLite connection itself, for the few hot-path statements that skip the query builder. */
  sqlite?: SqliteDatabase.Database | undefined;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  databaseUrl?: string;
  /** Folder of the SQLite file; `:memory:` keeps everything in memory. */
  dataDir: string;
  /** PostgreSQL schema to work in (created if missing); lets test runs share one database. */
  postgresSchema?: string;
  /**
   * Whether this process copies SQLite's write-ahead log into the database file (default true).
   * One process per file does it: cluster workers leave it to their primary.
   */
  checkpointWal?: boolean;
}

const POSTGRES_INT8_OID = 20;

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.postgresSchema);
  return openSqlite(options.dataDir, options.checkpointWal ?? true);
}

function openSqlite(dataDir: string, checkpointWal: boolean): Store {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = path.join(dataDir, 'gateway.sqlite');
  }
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Other processes may write to the same file: waits for the write lock stay short (see
  // sqlite-busy-retry.ts), and the commits never checkpoint (one background checkpointer does).
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  let checkpointer: WalCheckpointer | undefined;
  if (file !== ':memory:') {
    sqlite.pragma('wal_autocheckpoint = 0');
    // When the log starts over, the writer trims the file back to this size (see wal-checkpointer.ts).
    sqlite.pragma(`journal_size_limit = ${WAL_RESTART_FRAMES * 4096}`);
    if (checkpointWal) checkpointer = startWalCheckpointer(file);
  }
  const db = new Kysely<Database>({
    dialect: new SqliteStoreDialect(sqlite, { database: withStatementCache(sqlite) }),
  });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    async close() {
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; most of the gateway's queries repeat, so their prepared
 * statements are kept. Only `run` and `all` are used on them, which leave a statement reusable.
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

const pg = loadOnFirstUse<typeof import('pg')>('pg');

const UNIQUE_VIOLATION = '23505';

function openPostgres(connectionString: string, schema: string | undefined): Store {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid schema name "${schema}"`);
  const pool = new (pg().Pool)({
    connectionString,
    max: 10,
    ...(schema && { options: `-c search_path=${schema}` }),
    // int8 (BIGINT, COUNT) arrives as text by default; our amounts stay within 2^53.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === POSTGRES_INT8_OID
          ? (value: string) => Number(value)
          : pg().types.getTypeParser(oid, format as 'text'),
    },
  });
  // An idle connection the server dropped (a restart, a network cut) is only taken out of the pool;
  // unheard, pg would throw it as an uncaught exception. The next query connects anew, or fails
  // and says so (the readiness check reports the database down).
  pool.on('error', () => undefined);
  // The same for a connection in use: pg reports its loss to the query (which fails and says so)
  // and then again as an `error` event of the client, which nobody else hears while it is checked
  // out.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      onCreateConnection: schema
        ? async (connection) => {
            try {
              await connection.executeQuery(CompiledQuery.raw(`create schema if not exists "${schema}"`));
            } catch (error) {
              // Two processes creating it at once: the loser's `if not exists` still fails, on the unique index.
              if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
            }
          }
        : undefined,
    }),
  });
  return { db, dialect: 'postgres', schema, close: () => db.destroy() };
}
