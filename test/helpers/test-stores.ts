import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';

export interface StoreVariant {
  name: 'sqlite' | 'postgres';
  /** A migrated, empty store of its own; `close` removes what it created. */
  open(): Promise<Store>;
}

/** A fresh PostgreSQL schema name, so test files can share the `test` database. */
export function uniqueSchemaName(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** Drops a schema a test made in the PostgreSQL database at `databaseUrl`, with its own connection. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

/** SQLite always; PostgreSQL too when `DATABASE_URL` is set (CI sets it). */
export function storeVariants(): StoreVariant[] {
  const variants: StoreVariant[] = [
    {
      name: 'sqlite',
      async open() {
        const store = openStore({ dataDir: ':memory:' });
        await migrateToLatest(store);
        return store;
      },
    },
  ];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    variants.push({
      name: 'postgres',
      async open() {
        const schema = uniqueSchemaName();
        const store = openStore({ dataDir: ':memory:', databaseUrl, postgresSchema: schema });
        await migrateToLatest(store);
        return {
          ...store,
          async close() {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
            await store.close();
          },
        };
      },
    });
  }
  return variants;
}

/** Where a test gateway keeps its data: SQLite in its data directory, or a PostgreSQL schema of its own. */
export interface GatewayStoreVariant {
  name: 'sqlite' | 'postgres';
  /** What `startTestGateway` takes to use it. */
  options: { databaseUrl?: string; databaseSchema?: string };
  /** Drops the PostgreSQL schema once the gateway is closed; nothing to do for SQLite. */
  cleanUp(): Promise<void>;
}

/** SQLite always; PostgreSQL too when `DATABASE_URL` is set, each variant in a schema of its own. */
export function gatewayStoreVariants(): GatewayStoreVariant[] {
  const variants: GatewayStoreVariant[] = [{ name: 'sqlite', options: {}, cleanUp: async () => undefined }];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const databaseSchema = uniqueSchemaName();
    variants.push({
      name: 'postgres',
      options: { databaseUrl, databaseSchema },
      cleanUp: () => dropSchema(databaseUrl, databaseSchema),
    });
  }
  return variants;
}
