import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { servedModelFunction } from '../../src/store/migrations/0014-served-model.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { createRepositories } from '../../src/store/repositories.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';
import { usageRecord } from '../helpers/usage-record.js';

const databaseUrl = process.env.DATABASE_URL;
const MIGRATIONS = [
  '0001-initial',
  '0002-holds-and-leases',
  '0003-channel-config',
  '0004-console-sessions',
  '0005-money-moves-function',
  '0006-money-moves-per-user',
  '0007-spend-limits',
  '0008-budget-money-moves',
  '0009-newer-windows',
  '0010-windows-per-batch',
  '0011-model-metadata',
  '0012-virtual-models',
  '0013-requested-model',
  '0014-served-model',
  '0015-job-leases',
  '0016-guardrails',
  '0017-logged-bodies',
  '0018-managed-by-config',
  '0019-audio-prices',
  '0020-audio-usage',
  '0021-balance-credits',
  '0022-sign-up-and-codes',
  '0023-orders',
];

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

function sqliteStore(): Store {
  const store = openStore({ dataDir: ':memory:' });
  opened.push(() => store.close());
  return store;
}

function postgresStore(schema = uniqueSchemaName()): Store {
  const store = openStore({ dataDir: ':memory:', databaseUrl: databaseUrl!, postgresSchema: schema });
  opened.push(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
    await store.close();
  });
  return store;
}

async function appliedNames(store: Store): Promise<string[]> {
  const db = store.db as unknown as Kysely<{ kysely_migration: { name: string } }>;
  const rows = await db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
  return rows.map((row) => row.name);
}

/** Every migration recorded, and the last one's table there. */
async function expectLatest(store: Store): Promise<void> {
  expect(await appliedNames(store)).toEqual(MIGRATIONS);
  await sql`select count(*) from sessions`.execute(store.db);
}

const variants = [
  { name: 'sqlite', open: () => sqliteStore() },
  ...(databaseUrl ? [{ name: 'postgres', open: () => postgresStore() }] : []),
];

describe.each(variants)('$name', ({ open }) => {
  test('a fresh database gets every migration once; a second start changes nothing', async () => {
    const store = open();
    await migrateToLatest(store);
    expect(await appliedNames(store)).toEqual(MIGRATIONS);
    await migrateToLatest(store);
    await expectLatest(store);
  });

  test('only the migrations a database lacks are applied', async () => {
    const store = open();
    await migrateToLatest(store);
    // Undo 0004 by hand, as if the database had been left by the version before it.
    await sql`drop table sessions`.execute(store.db);
    await sql`drop index usage_logs_created_at`.execute(store.db);
    await sql`drop index usage_logs_channel_id`.execute(store.db);
    await sql`delete from kysely_migration where name = '0004-console-sessions'`.execute(store.db);
    await migrateToLatest(store);
    await expectLatest(store);
  });

  test('holds left by the version before 0020 are stored and settled after it, with the audio figures from then on', async () => {
    const store = open();
    await migrateToLatest(store);
    // Undo 0020 by hand, as if the database had been left by the version before it.
    for (const table of ['holds', 'usage_logs']) {
      await sql`alter table ${sql.table(table)} drop column audio_seconds`.execute(store.db);
      await sql`alter table ${sql.table(table)} drop column characters`.execute(store.db);
    }
    if (store.dialect === 'postgres') await sql.raw(servedModelFunction).execute(store.db);
    // And the migrations after it.
    await sql`drop table balance_credits`.execute(store.db);
    await sql`delete from kysely_migration where name in ('0020-audio-usage', '0021-balance-credits')`.execute(
      store.db,
    );
    const { user, key } = await seedUserWithKey(createRepositories(store), { balance: 1_000, quota: null });
    const bool = (value: boolean) => (store.dialect === 'postgres' ? value : Number(value));
    const hold = { owner: 'old', user_id: user.id, key_id: key.id, key_capped: bool(false), amount: 100 };
    const request = {
      model: 'whisper-1',
      endpoint: 'audio-transcriptions',
      stream: bool(false),
      created_at: 1,
    };
    await store.db
      .insertInto('holds')
      .values([
        {
          id: 'settled-before',
          ...hold,
          ...request,
          status_code: 200,
          channel_id: null,
          prompt_tokens: 1,
          completion_tokens: 2,
          cached_tokens: 0,
          cache_write_tokens: 0,
          reasoning_tokens: 0,
          cost: 10,
          latency_ms: 5,
          first_byte_ms: null,
          error: null,
          settled_at: 2,
        },
        { id: 'open-across', ...hold, ...request },
      ])
      .execute();

    await migrateToLatest(store);
    await expectLatest(store);
    const ledger = openMoneyLedger(store);
    const held = {
      id: 'open-across',
      userId: user.id,
      keyId: key.id,
      keyCapped: false,
      amount: 100,
      createdAt: 1,
      model: 'whisper-1',
    };
    const record = usageRecord({
      requestId: 'open-across',
      userId: user.id,
      keyId: key.id,
      model: 'whisper-1',
      audioSeconds: 3.5,
    });
    expect(await ledger.settle(held, 10, record)).toBe(true);
    expect(await ledger.storeRecords('old')).toBe(2);
    const logs = await createRepositories(store).usageLogs.list({ limit: 10, offset: 0 });
    const byRequest = logs.sort((a, b) => a.requestId.localeCompare(b.requestId));
    expect(byRequest.map((log) => [log.requestId, log.cost, log.audioSeconds, log.characters])).toEqual([
      ['open-across', 10, 3.5, null],
      ['settled-before', 10, null, null],
    ]);
  });

  test('a database migrated by a newer version is refused, by name, and left as it was', async () => {
    const store = open();
    await migrateToLatest(store);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', 'x')`.execute(
      store.db,
    );
    await expect(migrateToLatest(store)).rejects.toThrow(/9999-from-the-future/);
    expect(await appliedNames(store)).toEqual([...MIGRATIONS, '9999-from-the-future']);
  });

  test('a migration that fails leaves no part of the run behind', async () => {
    const store = open();
    // A table in the way of the first migration's: the run fails there, and nothing is recorded.
    await sql`create table users (unrelated integer)`.execute(store.db);
    await expect(migrateToLatest(store)).rejects.toThrow(/database migration 0001-initial failed/);
    await sql`drop table users`.execute(store.db);
    await migrateToLatest(store);
    expect(await appliedNames(store)).toEqual(MIGRATIONS);
  });
});

describe.runIf(databaseUrl)('PostgreSQL shared with other applications', () => {
  test('several processes start at once against a fresh schema: it is created and migrated once', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = uniqueSchemaName();
      const stores = [postgresStore(schema), postgresStore(schema), postgresStore(schema)];
      await Promise.all(stores.map((store) => migrateToLatest(store)));
      expect(await appliedNames(stores[0]!)).toEqual(MIGRATIONS);
    }
  });

  test('starts while other applications create and drop their schemas', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const others = Array.from({ length: 6 }, () => `other_${randomBytes(6).toString('hex')}`);
    let churning = true;
    const churn = (async () => {
      while (churning) {
        for (const other of others) {
          await admin.query(`create schema "${other}"`);
          await admin.query(`create table "${other}".t (id serial primary key, v text)`);
        }
        for (const other of others) await admin.query(`drop schema "${other}" cascade`);
      }
    })();
    try {
      for (let round = 0; round < 10; round++) {
        const store = postgresStore();
        await migrateToLatest(store);
        expect(await appliedNames(store)).toEqual(MIGRATIONS);
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
  }, 60_000);

  test("another schema's migration table does not stand in for the gateway's own", async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const database = `gateway_${randomBytes(6).toString('hex')}`;
    await admin.query(`create database "${database}"`);
    try {
      const url = new URL(databaseUrl!);
      url.pathname = `/${database}`;
      const other = new pg.Client({ connectionString: url.toString() });
      await other.connect();
      await other.query('create schema other_app');
      await other.query(
        'create table other_app.kysely_migration (name varchar(255) primary key, timestamp varchar(255))',
      );
      await other.end();
      // No schema configured: the gateway's tables go to the database's default schema.
      const store = openStore({ dataDir: ':memory:', databaseUrl: url.toString() });
      try {
        await migrateToLatest(store);
        expect(await appliedNames(store)).toEqual(MIGRATIONS);
      } finally {
        await store.close();
      }
    } finally {
      await admin.query(`drop database "${database}"`);
      await admin.end();
    }
  });
});
