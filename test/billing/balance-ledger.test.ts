import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BalanceLedger } from '../../src/billing/balance-ledger.js';
import type { MoneyLedger } from '../../src/store/money-ledger.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { GatewayError } from '../../src/errors/gateway-error.js';
import type { Store } from '../../src/store/database.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { storeVariants } from '../helpers/test-stores.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { usageRecord } from '../helpers/usage-record.js';

let requestSequence = 0;
const nextRequestId = () => `req-${process.pid}-${(requestSequence += 1)}`;

describe.each(storeVariants())('balance ledger on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  let ledger: BalanceLedger;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
    ledger = new BalanceLedger(openMoneyLedger(store), 'owner-a');
  });
  afterEach(async () => store.close());

  async function seed(balance: number, quota: number | null) {
    const { user, key } = await seedUserWithKey(repositories, { balance, quota });
    return {
      user,
      key,
      request: (amount: number) => ({
        requestId: nextRequestId(),
        userId: user.id,
        keyId: key.id,
        keyCapped: quota !== null,
        amount,
        model: 'gpt-4o',
        endpoint: 'chat-completions',
        stream: false,
      }),
    };
  }

  async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }

  test('errors in the order of the billing rules, with amounts to six decimals', async () => {
    const broke = await seed(0, null);
    const exhausted = await rejection(ledger.reserve(broke.request(1)));
    expect(exhausted.code).toBe('insufficient_user_quota');
    expect(exhausted.localizedMessage('en')).toBe('用户额度不足, 剩余额度: $0.000000');

    const poor = await seed(1_500_000, 10_000_000_000);
    const below = await rejection(ledger.reserve(poor.request(2_000_000)));
    expect(below.code).toBe('insufficient_user_quota');
    expect(below.localizedMessage('en')).toBe(
      '预扣费额度失败, 用户剩余额度: $0.001500, 需要预扣费额度: $0.002000',
    );

    const capped = await seed(10_000_000_000, 1_000_000);
    const keyShort = await rejection(ledger.reserve(capped.request(2_000_000)));
    expect(keyShort.code).toBe('pre_consume_token_quota_failed');
    expect(keyShort.status).toBe(403);
    expect(keyShort.localizedMessage('en')).toBe(
      'token quota is not enough, token remain quota: $0.001000, need quota: $0.002000',
    );
    // the user's balance was given back when the key's quota refused
    expect((await repositories.users.find(capped.user.id))?.balance).toBe(10_000_000_000);
  });

  const holdCount = async () =>
    Number(
      (
        await store.db
          .selectFrom('holds')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
  const logsOf = async (requestId: string) => {
    await ledger.storeRecords();
    return storedLogsOf(requestId);
  };
  const storedLogsOf = (requestId: string) =>
    repositories.usageLogs
      .list({ limit: 10, offset: 0 })
      .then((logs) => logs.filter((log) => log.requestId === requestId));

  test('a reservation is a durable hold; settling charges the real cost once and keeps the record with it', async () => {
    const { user, key, request } = await seed(1_000_000, 800_000);
    const asked = request(500_000);
    const reservation = await ledger.reserve(asked);
    expect((await repositories.users.find(user.id))?.balance).toBe(500_000);
    expect((await repositories.keys.find(key.id))?.quota).toBe(300_000);
    expect(await holdCount()).toBe(1);
    const record = usageRecord({ requestId: asked.requestId, userId: user.id, keyId: key.id });
    expect(await ledger.settle(reservation, 120_000, record)).toBe(true);
    expect(await ledger.settle(reservation, 120_000, record)).toBe(false);
    expect(await ledger.release(reservation, record)).toBe(false);
    expect(await repositories.users.find(user.id)).toMatchObject({ balance: 880_000, used: 120_000 });
    expect(await repositories.keys.find(key.id)).toMatchObject({ quota: 680_000, usedQuota: 120_000 });
    // The record is durable in the hold, then moves to the usage log with others in one commit.
    expect(await holdCount()).toBe(1);
    expect(await storedLogsOf(asked.requestId)).toHaveLength(0);
    const logs = await logsOf(asked.requestId);
    expect(await holdCount()).toBe(0);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      cost: 120_000,
      promptTokens: 10,
      channelId: 7,
      statusCode: 200,
      requestedModel: null,
    });
  });

  test('a settlement by another model (a fallback) records the served model and the one the client named', async () => {
    const { request } = await seed(1_000_000, null);
    const plain = request(100_000);
    const virtual = { ...request(100_000), requestedModel: 'smart' };
    const unchanged = request(100_000);
    for (const asked of [plain, virtual, unchanged]) {
      const reservation = await ledger.reserve(asked);
      const model = asked === unchanged ? 'gpt-4o' : 'claude-sonnet-4';
      await ledger.settle(reservation, 10, usageRecord({ requestId: asked.requestId, model }));
    }
    expect(await logsOf(plain.requestId)).toMatchObject([
      { model: 'claude-sonnet-4', requestedModel: 'gpt-4o', cost: 10 },
    ]);
    expect(await logsOf(virtual.requestId)).toMatchObject([
      { model: 'claude-sonnet-4', requestedModel: 'smart' },
    ]);
    expect(await logsOf(unchanged.requestId)).toMatchObject([{ model: 'gpt-4o', requestedModel: null }]);
  });

  test('a settlement keeps what an audio request is billed by in its record, null for other requests', async () => {
    const { request } = await seed(1_000_000, null);
    const transcription = request(100_000);
    const speech = request(100_000);
    const chat = request(100_000);
    const records = [
      [transcription, { audioSeconds: 3.25 }],
      [speech, { characters: 15 }],
      [chat, {}],
    ] as const;
    for (const [asked, audio] of records) {
      const reservation = await ledger.reserve(asked);
      await ledger.settle(reservation, 10, usageRecord({ requestId: asked.requestId, ...audio }));
    }
    expect(await logsOf(transcription.requestId)).toMatchObject([{ audioSeconds: 3.25, characters: null }]);
    expect(await storedLogsOf(speech.requestId)).toMatchObject([{ audioSeconds: null, characters: 15 }]);
    expect(await storedLogsOf(chat.requestId)).toMatchObject([{ audioSeconds: null, characters: null }]);
  });

  test('a settlement repeated on the database (a lost acknowledgement) moves the money once', async () => {
    const { user, request } = await seed(1_000_000, 800_000);
    const asked = request(500_000);
    const { hold } = await ledger.reserve(asked);
    const money = openMoneyLedger(store);
    const record = usageRecord({ requestId: asked.requestId });
    const outcomes = await Promise.all([
      money.settle(hold, 100_000, record),
      money.settle(hold, 100_000, record),
      money.settle(hold, 100_000, record),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await repositories.users.find(user.id)).toMatchObject({ balance: 900_000, used: 100_000 });
    expect(await logsOf(asked.requestId)).toHaveLength(1);
  });

  test('release gives everything back once and still leaves the record', async () => {
    const { user, key, request } = await seed(1_000_000, 800_000);
    const asked = request(500_000);
    const reservation = await ledger.reserve(asked);
    const record = usageRecord({ requestId: asked.requestId, statusCode: 502, error: 'upstream 502' });
    await ledger.release(reservation, record);
    await ledger.release(reservation, record);
    await ledger.settle(reservation, 10, record);
    expect(await repositories.users.find(user.id)).toMatchObject({ balance: 1_000_000, used: 0 });
    expect(await repositories.keys.find(key.id)).toMatchObject({ quota: 800_000, usedQuota: 0 });
    expect(await logsOf(asked.requestId)).toMatchObject([
      { cost: 0, statusCode: 502, error: 'upstream 502' },
    ]);
  });

  test('unlimited keys only count usage', async () => {
    const { key, request } = await seed(1_000_000, null);
    const asked = request(400_000);
    await ledger.settle(await ledger.reserve(asked), 250_000, usageRecord({ requestId: asked.requestId }));
    expect(await repositories.keys.find(key.id)).toMatchObject({ quota: 0, usedQuota: 250_000 });
  });

  test("a dead owner's holds are returned once, each with an interrupted record", async () => {
    const { user, key, request } = await seed(1_000_000, 800_000);
    const first = request(300_000);
    const second = request(200_000);
    const firstHold = (await ledger.reserve(first)).hold;
    await ledger.reserve({ ...second, requestedModel: 'smart' });
    const own = new BalanceLedger(openMoneyLedger(store), 'owner-b');
    const ours = request(100_000);
    await own.reserve(ours);
    const money = openMoneyLedger(store);
    const [returned, again] = await Promise.all([money.returnHolds('owner-a'), money.returnHolds('owner-a')]);
    expect([returned.length, again.length].sort()).toEqual([0, 2]);
    expect(await repositories.users.find(user.id)).toMatchObject({ balance: 900_000, used: 0 });
    expect(await repositories.keys.find(key.id)).toMatchObject({ quota: 700_000, usedQuota: 0 });
    for (const [asked, requestedModel] of [
      [first, null],
      [second, 'smart'],
    ] as const) {
      expect(await logsOf(asked.requestId)).toMatchObject([
        {
          statusCode: 0,
          cost: 0,
          error: 'interrupted',
          model: 'gpt-4o',
          requestedModel,
          endpoint: 'chat-completions',
          userId: user.id,
          audioSeconds: null,
          characters: null,
        },
      ]);
    }
    expect(await holdCount()).toBe(1);
    // the request of the dead owner that finishes late finds no hold and moves nothing
    expect(await money.settle(firstHold, 50_000, usageRecord({ requestId: first.requestId }))).toBe(false);
    expect((await repositories.users.find(user.id))?.balance).toBe(900_000);
  });

  test('concurrent reservations never take more than the balance or the cap', async () => {
    const balanceBound = await seed(1_000_000, null);
    const byBalance = await Promise.allSettled(
      Array.from({ length: 50 }, () => ledger.reserve(balanceBound.request(30_000))),
    );
    expect(byBalance.filter((result) => result.status === 'fulfilled')).toHaveLength(33);
    expect((await repositories.users.find(balanceBound.user.id))?.balance).toBe(10_000);

    const capBound = await seed(100_000_000, 100_000);
    const byCap = await Promise.allSettled(
      Array.from({ length: 30 }, () => ledger.reserve(capBound.request(7_000))),
    );
    expect(byCap.filter((result) => result.status === 'fulfilled')).toHaveLength(14);
    expect((await repositories.keys.find(capBound.key.id))?.quota).toBe(2_000);
    expect((await repositories.users.find(capBound.user.id))?.balance).toBe(100_000_000 - 14 * 7_000);
  });
});

test('a settlement that meets a database hiccup is tried again and lands once', async () => {
  const moves: string[] = [];
  let failures = 2;
  const flaky: MoneyLedger = {
    reserve: async () => 'reserved',
    settle: async (_hold, cost) => {
      if (failures-- > 0) throw new Error('database is locked');
      moves.push(`settle ${cost}`);
      return true;
    },
    storeRecords: async () => 0,
    returnHolds: async () => [],
    balanceOf: async () => 0,
    quotaOf: async () => 0,
  };
  const ledger = new BalanceLedger(flaky, 'owner');
  const reservation = await ledger.reserve({
    requestId: 'r1',
    userId: 1,
    keyId: 1,
    keyCapped: false,
    amount: 10,
    model: 'm',
    endpoint: 'chat-completions',
    stream: false,
  });
  await ledger.settle(reservation, 7, usageRecord());
  await ledger.settle(reservation, 7, usageRecord());
  await ledger.release(reservation, usageRecord());
  expect(moves).toEqual(['settle 7']);
});

describe('logged bodies in the record batches', () => {
  const body = (requestId: string) => ({
    requestId,
    createdAt: 1,
    requestBody: '{}',
    responseBody: '{}',
    truncated: false,
  });
  /** A ledger whose batches fail while `failing` says so, recording what each stored batch carried. */
  const batches = (failing: (bodies: readonly { requestId: string }[]) => boolean) => {
    const stored: string[][] = [];
    const money: MoneyLedger = {
      reserve: async () => 'reserved',
      settle: async () => true,
      storeRecords: async (_owner, bodies = []) => {
        if (failing(bodies)) throw new Error('batch refused');
        stored.push(bodies.map((entry) => entry.requestId));
        return 0;
      },
      returnHolds: async () => [],
      balanceOf: async () => 0,
      quotaOf: async () => 0,
    };
    return { money, stored };
  };

  test('bodies go with the next batch, and wait through a database outage', async () => {
    let down = true;
    const { money, stored } = batches(() => down);
    const ledger = new BalanceLedger(money, 'owner', { storeIntervalMs: 60_000 });
    ledger.logBody(body('a'));
    ledger.logBody(body('b'));
    for (let attempt = 0; attempt < 5; attempt += 1) await expect(ledger.storeRecords()).rejects.toThrow();
    down = false;
    ledger.logBody(body('c'));
    await ledger.storeRecords();
    expect(stored.flat()).toEqual(['a', 'b', 'c']);
    await ledger.close();
  });

  test('bodies that fail where records alone do not are dropped after three tries, and counted', async () => {
    const { money, stored } = batches((bodies) => bodies.some((entry) => entry.requestId === 'poison'));
    let dropped = 0;
    const ledger = new BalanceLedger(money, 'owner', {
      storeIntervalMs: 60_000,
      onBodyDropped: (count) => (dropped += count),
    });
    ledger.logBody(body('poison'));
    for (let attempt = 0; attempt < 3; attempt += 1) await expect(ledger.storeRecords()).rejects.toThrow();
    await ledger.storeRecords();
    expect(dropped).toBe(1);
    ledger.logBody(body('fine'));
    await ledger.storeRecords();
    expect(stored).toEqual([[], ['fine']]);
    await ledger.close();
  });

  test('past the waiting limit, further bodies are dropped rather than held', async () => {
    const { money } = batches(() => true);
    let dropped = 0;
    const ledger = new BalanceLedger(money, 'owner', {
      storeIntervalMs: 60_000,
      onBodyDropped: (count) => (dropped += count),
    });
    const large = { ...body('large'), requestBody: 'x'.repeat(40 * 1024 * 1024) };
    ledger.logBody(large);
    ledger.logBody({ ...large, requestId: 'second' });
    expect(dropped).toBe(1);
  });
});
