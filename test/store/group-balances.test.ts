import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openMoneyLedger, type Hold, type MoneyLedger } from '../../src/store/money-ledger.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { usageRecord } from '../helpers/usage-record.js';

/**
 * On SQLite a group commit keeps the balances and quotas it moves in memory and writes one update
 * per user and per key before it commits. These pin what that must not change: a group rolled back
 * moves nothing, now or in the next group; every group starts from the stored amounts, whoever
 * wrote them; and a group of many users' reservations, settlements and returns writes each one's
 * sum.
 */
let dataDir: string;
let store: Store;
let repositories: Repositories;
let ledger: MoneyLedger;
let other: SqliteDatabase.Database;
let sequence = 0;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-group-balances-'));
  store = openStore({ dataDir });
  await migrateToLatest(store);
  repositories = createRepositories(store);
  ledger = openMoneyLedger(store);
  other = new SqliteDatabase(path.join(dataDir, 'gateway.sqlite'));
});
afterEach(async () => {
  other.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function hold(
  seeded: { user: { id: number }; key: { id: number; unlimitedQuota: boolean } },
  amount: number,
  id = `hold-${(sequence += 1)}`,
): Hold {
  return {
    id,
    owner: 'owner-a',
    userId: seeded.user.id,
    keyId: seeded.key.id,
    keyCapped: !seeded.key.unlimitedQuota,
    amount,
    model: 'gpt-4o',
    endpoint: 'chat-completions',
    stream: false,
    createdAt: 1,
  };
}

const money = async (seeded: { user: { id: number }; key: { id: number } }) => {
  const user = await repositories.users.find(seeded.user.id);
  const key = await repositories.keys.find(seeded.key.id);
  return { balance: user?.balance, used: user?.used, quota: key?.quota, usedQuota: key?.usedQuota };
};

test('a group rolled back moves no money, and the next group does not carry its moves', async () => {
  const payer = await seedUserWithKey(repositories, { balance: 1_000, quota: 500 });
  // The same hold id twice in one group: the second insert fails and the whole group rolls back.
  const outcomes = await Promise.allSettled([
    ledger.reserve(hold(payer, 100, 'twice')),
    ledger.reserve(hold(payer, 200)),
    ledger.reserve(hold(payer, 100, 'twice')),
  ]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(await money(payer)).toEqual({ balance: 1_000, used: 0, quota: 500, usedQuota: 0 });

  expect(await ledger.reserve(hold(payer, 50))).toBe('reserved');
  expect(await money(payer)).toEqual({ balance: 950, used: 0, quota: 450, usedQuota: 0 });
});

test('every group starts from the stored balance and quota, whoever changed them since', async () => {
  const payer = await seedUserWithKey(repositories, { balance: 1_000, quota: 800 });
  expect(await ledger.reserve(hold(payer, 100))).toBe('reserved');
  // Another process (a second worker, an admin's top-up) moves the money between two groups.
  other.prepare('update users set balance = 150 where id = ?').run(payer.user.id);
  expect(await ledger.reserve(hold(payer, 200))).toBe('balance');
  other.prepare('update api_keys set quota = 120 where id = ?').run(payer.key.id);
  expect(await ledger.reserve(hold(payer, 130))).toBe('quota');
  expect(await ledger.reserve(hold(payer, 120))).toBe('reserved');
  expect(await money(payer)).toEqual({ balance: 30, used: 0, quota: 0, usedQuota: 0 });
});

test('one group of several users’ reservations, refusals, settlements and returns writes each one’s sum', async () => {
  const capped = await seedUserWithKey(repositories, { balance: 10_000, quota: 1_000 });
  const unlimited = await seedUserWithKey(repositories, { balance: 500, quota: null });
  const settledCapped = hold(capped, 400);
  const settledUnlimited = hold(unlimited, 300);
  const returned = { ...hold(capped, 200), owner: 'owner-dead' };
  for (const earlier of [settledCapped, settledUnlimited, returned])
    expect(await ledger.reserve(earlier)).toBe('reserved');
  expect(await money(capped)).toEqual({ balance: 9_400, used: 0, quota: 400, usedQuota: 0 });
  expect(await money(unlimited)).toEqual({ balance: 200, used: 0, quota: 0, usedQuota: 0 });

  // In submission order: the capped key's 400 left refuses 500 until the settlement gives back 250.
  const outcomes = await Promise.all([
    ledger.reserve(hold(capped, 500)),
    ledger.settle(settledCapped, 150, usageRecord({ requestId: settledCapped.id })),
    ledger.reserve(hold(capped, 500)),
    ledger.reserve(hold(capped, 200)),
    ledger.reserve(hold(unlimited, 150)),
    ledger.settle(settledUnlimited, 100, usageRecord({ requestId: settledUnlimited.id })),
    ledger.returnHolds('owner-dead'),
    ledger.reserve(hold(unlimited, 200)),
    ledger.reserve(hold(unlimited, 1_000)),
  ]);
  expect(outcomes.map((outcome) => (Array.isArray(outcome) ? outcome.length : outcome))).toEqual([
    'quota',
    true,
    'reserved',
    'quota',
    'reserved',
    true,
    1,
    'reserved',
    'balance',
  ]);
  // capped: 150 charged of 400 held, 500 reserved, the dead owner's 200 returned.
  expect(await money(capped)).toEqual({ balance: 9_350, used: 150, quota: 350, usedQuota: 150 });
  // unlimited: 100 charged of 300 held, 150 reserved (the balance was 200), then 200 once 200 came
  // back, then 1,000 refused.
  expect(await money(unlimited)).toEqual({ balance: 50, used: 100, quota: 0, usedQuota: 100 });
});
