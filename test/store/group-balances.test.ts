import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Store } from '../../src/store/database.js';
import type { Hold, MoneyLedger } from '../../src/store/money-ledger.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { storeVariants } from '../helpers/test-stores.js';
import { usageRecord } from '../helpers/usage-record.js';

/**
 * A group commit (SQLite) or a batch (PostgreSQL) moves each user's balance and each key's quota in
 * memory and writes one update per user and per key. These pin what that must not change: a move
 * that fails takes nothing, now or in the next group; every group starts from the stored amounts,
 * whoever wrote them; and a group of several users' moves applies each in submission order and
 * writes each one's sum.
 */
let sequence = 0;

describe.each(storeVariants())('money moves of one group on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  let ledger: MoneyLedger;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
    ledger = openMoneyLedger(store);
  });
  afterEach(async () => store.close());

  function hold(
    seeded: { user: { id: number }; key: { id: number; unlimitedQuota: boolean } },
    amount: number,
    id = `hold-${process.pid}-${(sequence += 1)}`,
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

  test('a move that fails takes no money, and the next group does not carry what its group moved', async () => {
    const payer = await seedUserWithKey(repositories, { balance: 1_000, quota: 500 });
    const twice = `twice-${process.pid}-${(sequence += 1)}`;
    // The same hold id twice in one group: the second insert fails. SQLite rolls the whole group
    // back; PostgreSQL applies the batch again move by move, so that only the second one fails.
    const outcomes = await Promise.allSettled([
      ledger.reserve(hold(payer, 100, twice)),
      ledger.reserve(hold(payer, 200)),
      ledger.reserve(hold(payer, 100, twice)),
    ]);
    const rolledBackWhole = variant.name === 'sqlite';
    expect(outcomes.map((outcome) => outcome.status)).toEqual(
      rolledBackWhole ? ['rejected', 'rejected', 'rejected'] : ['fulfilled', 'fulfilled', 'rejected'],
    );
    const left = rolledBackWhole ? { balance: 1_000, quota: 500 } : { balance: 700, quota: 200 };
    expect(await money(payer)).toEqual({ ...left, used: 0, usedQuota: 0 });

    expect(await ledger.reserve(hold(payer, 50))).toBe('reserved');
    expect(await money(payer)).toEqual({
      balance: left.balance - 50,
      used: 0,
      quota: left.quota - 50,
      usedQuota: 0,
    });
  });

  test('every group starts from the stored balance and quota, whoever changed them since', async () => {
    const payer = await seedUserWithKey(repositories, { balance: 1_000, quota: 800 });
    expect(await ledger.reserve(hold(payer, 100))).toBe('reserved');
    // An admin's top-up, or another instance's moves, change the money between two groups.
    await store.db.updateTable('users').set({ balance: 150 }).where('id', '=', payer.user.id).execute();
    expect(await ledger.reserve(hold(payer, 200))).toBe('balance');
    await store.db.updateTable('api_keys').set({ quota: 120 }).where('id', '=', payer.key.id).execute();
    expect(await ledger.reserve(hold(payer, 130))).toBe('quota');
    expect(await ledger.reserve(hold(payer, 120))).toBe('reserved');
    expect(await money(payer)).toEqual({ balance: 30, used: 0, quota: 0, usedQuota: 0 });
  });

  test('one group of two users’ reservations, refusals and settlements applies each in order and writes each one’s sum', async () => {
    const capped = await seedUserWithKey(repositories, { balance: 10_000, quota: 1_000 });
    const unlimited = await seedUserWithKey(repositories, { balance: 500, quota: null });
    const settledCapped = hold(capped, 600);
    const settledUnlimited = hold(unlimited, 300);
    expect(await ledger.reserve(settledCapped)).toBe('reserved');
    expect(await ledger.reserve(settledUnlimited)).toBe('reserved');
    expect(await money(capped)).toEqual({ balance: 9_400, used: 0, quota: 400, usedQuota: 0 });
    expect(await money(unlimited)).toEqual({ balance: 200, used: 0, quota: 0, usedQuota: 0 });

    // In submission order, each user's moves seeing those before them: a settlement's refund counts
    // for the reservations after it, in the balance and in the key's quota.
    const outcomes = await Promise.all([
      ledger.settle(settledCapped, 350, usageRecord({ requestId: settledCapped.id })),
      ledger.settle(settledUnlimited, 100, usageRecord({ requestId: settledUnlimited.id })),
      ledger.reserve(hold(capped, 500)),
      ledger.reserve(hold(unlimited, 350)),
      ledger.reserve(hold(capped, 200)),
      ledger.reserve(hold(unlimited, 100)),
    ]);
    expect(outcomes).toEqual([true, true, 'reserved', 'reserved', 'quota', 'balance']);
    // capped: 350 charged of 600 held (250 back, a quota of 650), then 500 reserved of it.
    expect(await money(capped)).toEqual({ balance: 9_150, used: 350, quota: 150, usedQuota: 350 });
    // unlimited: 100 charged of 300 held (200 back, a balance of 400), then 350 reserved of it.
    expect(await money(unlimited)).toEqual({ balance: 50, used: 100, quota: 0, usedQuota: 100 });
  });

  test.runIf(variant.name === 'postgres')(
    'a settlement ordered under another user than its hold’s fails alone and moves nothing',
    async () => {
      const payer = await seedUserWithKey(repositories, { balance: 1_000, quota: null });
      const other = await seedUserWithKey(repositories, { balance: 1_000, quota: null });
      const held = hold(payer, 400);
      expect(await ledger.reserve(held)).toBe('reserved');
      const outcomes = await Promise.allSettled([
        ledger.settle({ ...held, userId: other.user.id }, 100, usageRecord({ requestId: held.id })),
        ledger.reserve(hold(other, 300)),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
      expect(await money(payer)).toEqual({ balance: 600, used: 0, quota: 0, usedQuota: 0 });
      expect(await money(other)).toEqual({ balance: 700, used: 0, quota: 0, usedQuota: 0 });
      expect(await ledger.settle(held, 100, usageRecord({ requestId: held.id }))).toBe(true);
      expect(await money(payer)).toEqual({ balance: 900, used: 100, quota: 0, usedQuota: 100 });
    },
  );
});
