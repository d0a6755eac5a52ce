import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { createRepositories } from '../../src/store/repositories.js';
import { BUSY_TIMEOUT_MS } from '../../src/store/sqlite-busy-retry.js';

/**
 * Cluster workers share one SQLite file. Another connection (standing for another worker) holds
 * the write lock far past the busy timeout; the writes of this one wait and succeed instead of
 * failing with SQLITE_BUSY, and the event loop keeps turning meanwhile.
 */
const HOLD_MS = 600;

let dataDir: string;
let store: Store;
let other: SqliteDatabase.Database;

beforeEach(async () => {
  expect(HOLD_MS).toBeGreaterThan(BUSY_TIMEOUT_MS * 10);
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-busy-'));
  store = openStore({ dataDir });
  await migrateToLatest(store);
  other = new SqliteDatabase(path.join(dataDir, 'gateway.sqlite'));
});
afterEach(async () => {
  other.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Takes the write lock on the other connection and lets it go after `HOLD_MS`. */
function lockFromOtherProcess(): Promise<void> {
  other.exec('begin immediate');
  return new Promise((resolve) =>
    setTimeout(() => {
      other.exec('commit');
      resolve();
    }, HOLD_MS),
  );
}

test('writes through the query builder and in transactions wait out a lock held by another writer', async () => {
  const repositories = createRepositories(store);
  const released = lockFromOtherProcess();
  const started = Date.now();
  // The longest the event loop was held up, seen by a timer that wants to run every 10 ms.
  let last = Date.now();
  let longestStall = 0;
  const ticker = setInterval(() => {
    longestStall = Math.max(longestStall, Date.now() - last);
    last = Date.now();
  }, 10);
  const [user, inTransaction] = await Promise.all([
    repositories.users.create({
      username: 'busy',
      passwordHash: null,
      role: 'user',
      group: 'default',
      balance: 1_000,
      language: null,
      status: 'enabled',
    }),
    store.db.transaction().execute(async (transaction) => {
      await transaction.insertInto('settings').values({ name: 'busy', value: '1' }).execute();
      return transaction.selectFrom('settings').selectAll().where('name', '=', 'busy').executeTakeFirst();
    }),
  ]);
  clearInterval(ticker);
  await released;
  expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 20);
  expect(user.username).toBe('busy');
  expect(inTransaction?.value).toBe('1');
  // The wait happened on timers, not inside SQLite's busy handler, which blocks the event loop.
  expect(longestStall).toBeLessThan(HOLD_MS / 2);
});

test('money moves by group commit wait out the lock and apply once', async () => {
  const repositories = createRepositories(store);
  const user = await repositories.users.create({
    username: 'payer',
    passwordHash: null,
    role: 'user',
    group: 'default',
    balance: 1_000,
    language: null,
    status: 'enabled',
  });
  const ledger = openMoneyLedger(store);
  const released = lockFromOtherProcess();
  const holds = Array.from({ length: 5 }, (_, index) =>
    ledger.reserve({
      id: `hold-${index}`,
      owner: 'worker-a',
      userId: user.id,
      keyId: 1,
      keyCapped: false,
      amount: 100,
      model: 'm',
      endpoint: 'chat-completions',
      stream: false,
      createdAt: 1,
    }),
  );
  expect(await Promise.all(holds)).toEqual(Array(5).fill('reserved'));
  await released;
  expect(await ledger.balanceOf(user.id)).toBe(500);
  expect(other.prepare('select count(*) from holds').pluck().get()).toBe(5);
});
