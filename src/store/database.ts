import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL schema the tables live in, when one was chosen. */
  schema?: string | undefined;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite database is used. */
  databaseUrl?: string;
  /** Folder of the SQLite file; `:memory:` keeps everything in memory. */
  dataDir: string;
  /** PostgreSQL schema to work in (created if missing); lets test runs share one database. */
  postgresSchema?: string;
}

const POSTGRES_INT8_OID = 20;

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.postgresSchema);
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

function openPostgres(connectionString: string, schema: string | undefined): Store {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid schema name "${schema}"`);
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...(schema && { options: `-c search_path=${schema}` }),
    // int8 (BIGINT, COUNT) arrives as text by default; our amounts stay within 2^53.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === POSTGRES_INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool,
      onCreateConnection: schema
        ? async (connection) => {
            await connection.executeQuery(CompiledQuery.raw(`create schema if not exists "${schema}"`));
          }
        : undefined,
    }),
  });
  return { db, dialect: 'postgres', schema, close: () => db.destroy() };
}
