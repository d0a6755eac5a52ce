import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { WindowCharge } from '../../src/billing/budgets/window-charge.js';
import type { Store } from '../../src/store/database.js';
import type { Hold, MoneyLedger } from '../../src/store/money-ledger.js';
import { openMoneyLedger } from '../../src/store/open-money-ledger.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { storeVariants } from '../helpers/test-stores.js';
import { usageRecord } from '../helpers/usage-record.js';

/**
 * The windows of budgets and concurrency caps inside the money moves (admin-api section 10, rule
 * 2), on both databases: a reservation takes its place in every window or in none, a settlement
 * replaces it by the real figures (a failed request counts nothing), a returned hold gives it back,
 * a window past its time starts again on the next reservation, and a settlement that lands in a
 * newer window than its hold's counts nothing there.
 */
let sequence = 0;

function window(overrides: Partial<WindowCharge> = {}): WindowCharge {
  return {
    key: `key:1|day|${sequence}`,
    scope: 'key',
    owner: 1,
    period: 'day',
    start: 1_000,
    end: 87_400,
    sessionSeconds: null,
    usd: null,
    tokens: null,
    requests: null,
    alertAt: [],
    ...overrides,
  };
}

describe.each(storeVariants())('budget windows in the money moves on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  let ledger: MoneyLedger;
  let payer: Awaited<ReturnType<typeof seedUserWithKey>>;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
    ledger = openMoneyLedger(store);
    payer = await seedUserWithKey(repositories, { balance: 1_000_000, quota: null });
    sequence += 1;
  });
  afterEach(async () => store.close());

  function hold(
    windows: WindowCharge[],
    options: { amount?: number; tokens?: number; at?: number } = {},
  ): Hold {
    return {
      id: `hold-${process.pid}-${(sequence += 1)}`,
      owner: 'owner-a',
      userId: payer.user.id,
      keyId: payer.key.id,
      keyCapped: false,
      amount: options.amount ?? 100,
      model: 'gpt-4o',
      endpoint: 'chat-completions',
      stream: false,
      createdAt: options.at ?? 2_000,
      budget: { tokens: options.tokens ?? 30, windows, events: true },
    };
  }

  async function stored(key: string) {
    const row = await store.db
      .selectFrom('budget_windows')
      .selectAll()
      .where('window_key', '=', key)
      .executeTakeFirst();
    return (
      row && {
        start: Number(row.window_start),
        used: [Number(row.used_usd), Number(row.used_tokens), Number(row.used_requests)],
        held: [Number(row.held_usd), Number(row.held_tokens), Number(row.held_requests)],
      }
    );
  }

  const settle = (held: Hold, cost: number, counted = true) =>
    ledger.settle(
      held,
      cost,
      usageRecord({ requestId: held.id, promptTokens: 7, completionTokens: 5 }),
      counted,
    );

  test('a request limit: the reservation counts until it settles; a failed request gives its place back', async () => {
    const daily = window({ requests: 2 });
    const first = hold([daily]);
    const second = hold([daily]);
    expect(await ledger.reserve(first)).toBe('reserved');
    expect(await ledger.reserve(second)).toBe('reserved');
    expect(await ledger.reserve(hold([daily]))).toEqual({
      window: 0,
      dimension: 'requests',
      windowStart: 1_000,
      used: 2,
    });
    expect(await stored(daily.key)).toEqual({ start: 1_000, used: [0, 0, 0], held: [200, 60, 2] });

    expect(await settle(first, 40)).toBe(true);
    expect(await stored(daily.key)).toEqual({ start: 1_000, used: [40, 12, 1], held: [100, 30, 1] });
    expect(await ledger.reserve(hold([daily]))).toMatchObject({ dimension: 'requests' });

    expect(await settle(second, 0, false)).toBe(true);
    expect(await stored(daily.key)).toEqual({ start: 1_000, used: [40, 12, 1], held: [0, 0, 0] });
    expect(await ledger.reserve(hold([daily]))).toBe('reserved');
  });

  test('usd and token limits count settled and reserved figures; the refusal names the first limit that does not fit', async () => {
    const usd = window({ usd: 250, key: `usd-${sequence}` });
    const tokens = window({ tokens: 100, key: `tokens-${sequence}` });
    expect(await ledger.reserve(hold([usd, tokens], { amount: 200 }))).toBe('reserved');
    expect(await ledger.reserve(hold([usd, tokens], { amount: 60 }))).toMatchObject({
      window: 0,
      dimension: 'usd',
      used: 200,
    });
    expect(await ledger.reserve(hold([usd, tokens], { amount: 50, tokens: 71 }))).toMatchObject({
      window: 1,
      dimension: 'tokens',
      used: 30,
    });
    // Refused by the second window: nothing was taken in the first, nor from the balance.
    expect(await stored(usd.key)).toMatchObject({ held: [200, 30, 1] });
    expect((await repositories.users.find(payer.user.id))?.balance).toBe(1_000_000 - 200);
  });

  test('a balance that does not cover the request refuses first, and no window counts it', async () => {
    const poor = await seedUserWithKey(repositories, { balance: 50, quota: null });
    const daily = window({ requests: 0 });
    const refused = await ledger.reserve({ ...hold([daily]), userId: poor.user.id, keyId: poor.key.id });
    expect(refused).toBe('balance');
  });

  test('a concurrency cap counts requests in flight only', async () => {
    const slots = window({
      key: `slots-${sequence}`,
      period: 'concurrency',
      start: 0,
      end: null,
      requests: 1,
    });
    const first = hold([slots]);
    expect(await ledger.reserve(first)).toBe('reserved');
    expect(await ledger.reserve(hold([slots]))).toMatchObject({ dimension: 'requests', used: 1 });
    await settle(first, 10);
    expect(await ledger.reserve(hold([slots]))).toBe('reserved');
  });

  test('a calendar window past its end starts again; a settlement from the old window counts nothing in the new', async () => {
    const today = window({ requests: 1 });
    const late = hold([today]);
    expect(await ledger.reserve(late)).toBe('reserved');
    const tomorrow = { ...today, start: 87_400, end: 173_800 };
    expect(await ledger.reserve(hold([tomorrow], { at: 90_000 }))).toBe('reserved');
    expect(await stored(today.key)).toEqual({ start: 87_400, used: [0, 0, 0], held: [100, 30, 1] });
    await settle(late, 100);
    expect(await stored(today.key)).toEqual({ start: 87_400, used: [0, 0, 0], held: [100, 30, 1] });
  });

  test('a request whose window another process has already rolled over counts in neither, and leaves nothing held', async () => {
    const today = window({ requests: 1 });
    const tomorrow = { ...today, start: 87_400, end: 173_800 };
    const afterMidnight = hold([tomorrow], { at: 87_400 });
    expect(await ledger.reserve(afterMidnight)).toBe('reserved');
    const beforeMidnight = hold([today], { at: 87_399 });
    expect(await ledger.reserve(beforeMidnight)).toBe('reserved');
    expect(await stored(today.key)).toEqual({ start: 87_400, used: [0, 0, 0], held: [100, 30, 1] });
    await settle(beforeMidnight, 70);
    await settle(afterMidnight, 40);
    expect(await stored(today.key)).toEqual({ start: 87_400, used: [40, 12, 1], held: [0, 0, 0] });
  });

  test('a session window opens at its first request and again at the first one after it closed', async () => {
    const session = window({
      key: `session-${sequence}`,
      period: 'hours',
      start: null,
      end: null,
      sessionSeconds: 3_600,
      requests: 1,
    });
    const opening = hold([session], { at: 5_000 });
    expect(await ledger.reserve(opening)).toBe('reserved');
    await settle(opening, 10);
    expect(await ledger.reserve(hold([session], { at: 8_599 }))).toMatchObject({
      dimension: 'requests',
      windowStart: 5_000,
    });
    expect(await ledger.reserve(hold([session], { at: 8_600 }))).toBe('reserved');
    expect(await stored(session.key)).toEqual({ start: 8_600, used: [0, 0, 0], held: [100, 30, 1] });
  });

  test("a dead owner's holds give their windows back, once", async () => {
    const daily = window({ requests: 5 });
    await ledger.reserve(hold([daily]));
    await ledger.reserve(hold([daily]));
    const settled = hold([daily]);
    await ledger.reserve(settled);
    await settle(settled, 70);
    const [returned, again] = await Promise.all([
      ledger.returnHolds('owner-a'),
      ledger.returnHolds('owner-a'),
    ]);
    expect(returned.length + again.length).toBe(2);
    expect(await stored(daily.key)).toEqual({ start: 1_000, used: [70, 12, 1], held: [0, 0, 0] });
  });

  test('crossing an alert fraction stores one budget.threshold event per window, dimension and fraction', async () => {
    const daily = window({ requests: 4, usd: 1_000_000_000, alertAt: [0.5, 1] });
    for (let index = 0; index < 4; index += 1) {
      const held = hold([daily]);
      await ledger.reserve(held);
      await settle(held, 10);
    }
    const events = await store.db.selectFrom('webhook_events').selectAll().orderBy('created_at').execute();
    const data = events.map((event) => (JSON.parse(event.body) as { data: Record<string, unknown> }).data);
    expect(data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ dimension: 'requests', threshold: 0.5, used: 2, limit: 4 }),
        expect.objectContaining({ dimension: 'requests', threshold: 1, used: 4, limit: 4 }),
      ]),
    );
    expect(events).toHaveLength(2);
    expect(data[0]).toMatchObject({
      scope: 'key',
      id: 1,
      period: 'day',
      window_start: 1_000,
      resets_at: 87_400,
    });
  });

  test('concurrent reservations never together pass a limit, from two ledgers at once', async () => {
    const other = openMoneyLedger(store);
    const daily = window({ requests: 37 });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 ? ledger : other).reserve(hold([daily]))),
    );
    expect(outcomes.filter((outcome) => outcome === 'reserved')).toHaveLength(37);
    const { rows } = await sql<{ held: number }>`select held_requests as held from budget_windows
      where window_key = ${daily.key}`.execute(store.db);
    expect(Number(rows[0]?.held)).toBe(37);
  });
});
