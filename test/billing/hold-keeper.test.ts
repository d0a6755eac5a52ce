import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BalanceLedger } from '../../src/billing/balance-ledger.js';
import { HoldKeeper } from '../../src/billing/hold-keeper.js';
import { machineIdentity } from '../../src/billing/machine-identity.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Store } from '../../src/store/database.js';
import { LeasesRepository } from '../../src/store/leases-repository.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { storeVariants } from '../helpers/test-stores.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';

describe.each(storeVariants())('hold keeper on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  let leases: LeasesRepository;
  const keepers: HoldKeeper[] = [];
  let returnedCount = 0;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
    leases = new LeasesRepository(store.db, store.dialect);
    returnedCount = 0;
  });
  afterEach(async () => {
    for (const keeper of keepers.splice(0)) await keeper.stop();
    await store.close();
  });

  const startKeeper = async (ttlMs = 60_000) => {
    const keeper = await HoldKeeper.start({
      ledger: openMoneyLedger(store),
      leases,
      logger: createLogger('silent'),
      ttlMs,
      onReturned: async (holds) => void (returnedCount += holds.length),
      onLeaseLost: () => undefined,
    });
    keepers.push(keeper);
    return keeper;
  };

  async function userWithHold(owner: string, amount: number) {
    const { user, key } = await seedUserWithKey(repositories, { balance: 1_000_000, quota: 500_000 });
    const { hold } = await new BalanceLedger(openMoneyLedger(store), owner).reserve({
      requestId: `req-${owner}-${user.id}`,
      userId: user.id,
      keyId: key.id,
      keyCapped: true,
      amount,
      model: 'gpt-4o',
      endpoint: 'responses',
      stream: true,
    });
    return { user, key, hold };
  }

  const balanceOf = async (id: number) => (await repositories.users.find(id))?.balance;

  test('a start whose return of dead holds fails still starts, and the next tick returns them', async () => {
    const orphan = await userWithHold('gone-during-a-hiccup', 100_000);
    const ledger = openMoneyLedger(store);
    let failures = 1;
    const keeper = await HoldKeeper.start({
      ledger: {
        ...ledger,
        returnHolds: (owner) =>
          failures-- > 0 ? Promise.reject(new Error('deadlock detected')) : ledger.returnHolds(owner),
      },
      leases,
      logger: createLogger('silent'),
      ttlMs: 150,
      onReturned: async (holds) => void (returnedCount += holds.length),
      onLeaseLost: () => undefined,
    });
    keepers.push(keeper);
    expect(returnedCount).toBe(0);
    for (let waited = 0; waited < 2_000 && returnedCount === 0; waited += 25)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(returnedCount).toBe(1);
    expect(await balanceOf(orphan.user.id)).toBe(1_000_000);
  });

  test('on start, holds of owners without a lease, with an expired lease or a dead pid here are returned', async () => {
    const noLease = await userWithHold('gone', 100_000);
    const expired = await userWithHold('expired', 100_000);
    await leases.register({ owner: 'expired', host: 'elsewhere', pid: 1 }, -1_000);
    const deadHere = await userWithHold('dead-here', 100_000);
    const exited = spawnSync(process.execPath, ['-e', '0']).pid;
    await leases.register({ owner: 'dead-here', host: machineIdentity(), pid: exited }, 60_000);
    const alive = await userWithHold('alive-elsewhere', 100_000);
    await leases.register({ owner: 'alive-elsewhere', host: 'elsewhere', pid: 1 }, 60_000);

    await startKeeper();
    expect(returnedCount).toBe(3);
    for (const { user, key } of [noLease, expired, deadHere]) {
      expect(await balanceOf(user.id)).toBe(1_000_000);
      expect((await repositories.keys.find(key.id))?.quota).toBe(500_000);
    }
    expect(await balanceOf(alive.user.id)).toBe(900_000);
    const logs = await repositories.usageLogs.list({ limit: 10, offset: 0 });
    expect(logs.map((log) => log.error)).toEqual(['interrupted', 'interrupted', 'interrupted']);
  });

  test('a live owner on this machine keeps its holds; once its lease runs out they come back', async () => {
    const first = await startKeeper(60_000);
    const { user } = await userWithHold(first.owner, 250_000);
    const second = await startKeeper(60_000);
    expect(await second.returnDeadOwnersHolds()).toBe(0);
    expect(await balanceOf(user.id)).toBe(750_000);

    await leases.register({ owner: 'short', host: 'elsewhere', pid: 1 }, 300);
    const short = await userWithHold('short', 50_000);
    expect(await second.returnDeadOwnersHolds()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await second.returnDeadOwnersHolds()).toBe(1);
    expect(await balanceOf(short.user.id)).toBe(1_000_000);
    expect(await second.returnDeadOwnersHolds()).toBe(0);
  });

  test("a dead owner's settled records are stored as settled; only its running requests come back", async () => {
    const settledUser = await userWithHold('crashed', 300_000);
    const money = openMoneyLedger(store);
    const requestId = `req-crashed-${settledUser.user.id}`;
    const record = {
      requestId,
      createdAt: 5,
      userId: settledUser.user.id,
      keyId: settledUser.key.id,
      channelId: 3,
      model: 'gpt-4o',
      endpoint: 'responses',
      stream: true,
      statusCode: 200,
      promptTokens: 11,
      completionTokens: 22,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      cost: 0,
      latencyMs: 9,
      firstByteMs: 4,
      error: null,
    };
    expect(await money.settle(settledUser.hold, 40_000, record)).toBe(true);
    const running = await userWithHold('crashed', 100_000);
    await startKeeper();
    expect(returnedCount).toBe(1);
    expect(await balanceOf(settledUser.user.id)).toBe(960_000);
    expect(await balanceOf(running.user.id)).toBe(1_000_000);
    const logs = await repositories.usageLogs.list({ limit: 10, offset: 0 });
    expect(logs.map((log) => [log.requestId, log.cost, log.error])).toEqual(
      expect.arrayContaining([
        [requestId, 40_000, null],
        [`req-crashed-${running.user.id}`, 0, 'interrupted'],
      ]),
    );
    expect(logs).toHaveLength(2);
  });

  test('two keepers racing over the same dead owner return its holds once', async () => {
    const { user } = await userWithHold('dead', 400_000);
    const [a, b] = [await startKeeper(), await startKeeper()];
    await userWithHold('dead', 1);
    const counts = await Promise.all([a.returnDeadOwnersHolds(), b.returnDeadOwnersHolds()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test('stopping drops the lease, so what the process still holds is returned by the next one', async () => {
    const first = await startKeeper();
    const { user } = await userWithHold(first.owner, 300_000);
    await first.stop();
    keepers.splice(keepers.indexOf(first), 1);
    await startKeeper();
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});
