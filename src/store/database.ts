import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  databaseUrl?: string;
  /** Folder of the SQLite file; `:memory:` keeps everything in memory. */
  dataDir: string;
}

const POSTGRES_INT8_OID = 20;

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openSqlite(options.dataDir);
}

function openSqlite(dataDir: string): Store {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = path.join(dataDir, 'gateway.sqlite');
  }
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(connectionString: string): Store {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // int8 (BIGINT, COUNT) arrives as text by default; our amounts stay within 2^53.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === POSTGRES_INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
