import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import {
  MAX_MOVES_PER_BATCH,
  PostgresMoneyMoves,
  storableText,
  type ReserveMove,
  type SettleMove,
} from '../../src/store/postgres-money-moves.js';
import { openPostgresMoneyLedger } from '../../src/store/postgres-money-ledger.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import type { Database } from '../../src/store/schema.js';
import { storeVariants } from '../helpers/test-stores.js';
import { seedUserWithKey } from '../helpers/seed-user-with-key.js';
import { usageRecord } from '../helpers/usage-record.js';

const postgres = storeVariants().find((variant) => variant.name === 'postgres');

describe.skipIf(!postgres)('money moves on PostgreSQL, group-committed', () => {
  let store: Store;
  let repositories: Repositories;
  /** The batches sent: each one call of `gateway_money_moves`. */
  let batches: number;
  /** Called as each batch is sent. */
  let onBatch: () => void;
  let moves: PostgresMoneyMoves;

  beforeEach(async () => {
    store = await postgres!.open();
    repositories = createRepositories(store);
    batches = 0;
    onBatch = () => undefined;
    moves = new PostgresMoneyMoves(countingBatches(store.db));
  });
  afterEach(async () => store.close());

  function countingBatches(db: Kysely<Database>): Kysely<Database> {
    return new Proxy(db, {
      get(target, property) {
        if (property !== 'executeQuery') return Reflect.get(target, property, target);
        return (query: CompiledQuery) => {
          if (!query.sql.includes('gateway_money_moves')) return target.executeQuery(query);
          batches += 1;
          const sent = target.executeQuery(query);
          onBatch();
          return sent;
        };
      },
    });
  }

  let holdSequence = 0;
  async function seedUser(balance: number, quota: number | null = null) {
    const { user, key } = await seedUserWithKey(repositories, { balance, quota });
    const reserve = (amount: number): ReserveMove => ({
      kind: 'reserve',
      id: `hold-${(holdSequence += 1)}`,
      owner: 'owner-a',
      user_id: user.id,
      key_id: key.id,
      key_capped: quota !== null,
      amount,
      model: 'gpt-4o',
      endpoint: 'chat-completions',
      stream: false,
      created_at: 1,
    });
    const settle = (id: string, cost: number): SettleMove => ({
      kind: 'settle',
      id,
      user_id: user.id,
      cost,
      status_code: 200,
      channel_id: null,
      prompt_tokens: 1,
      completion_tokens: 2,
      cached_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      latency_ms: 3,
      first_byte_ms: null,
      error: null,
      settled_at: 2,
    });
    return { user, key, reserve, settle };
  }

  const balanceOf = async (userId: number) => (await repositories.users.find(userId))?.balance;

  test('the moves of one turn travel in one batch; those sent while it is on its way, in the next', async () => {
    const alice = await seedUser(1_000);
    const bob = await seedUser(1_000, 250);
    const opened = alice.reserve(100);
    await moves.submit(opened);
    expect(batches).toBe(1);

    const first = Promise.all([
      moves.submit(bob.reserve(100)),
      moves.submit(alice.settle(opened.id, 40)),
      moves.submit(alice.reserve(900)),
      moves.submit(bob.reserve(100)),
      moves.submit(alice.settle(opened.id, 40)),
      moves.submit(bob.reserve(100)),
    ]);
    // Submitted while the first batch is on its way.
    const second = new Promise<unknown[]>((resolve) => {
      onBatch = () => {
        onBatch = () => undefined;
        resolve(Promise.all([moves.submit(alice.reserve(61)), moves.submit(bob.reserve(1))]));
      };
    });
    // Each outcome is its own move's, in the order given; bob's third is refused by his key's
    // quota, and his balance is given back in the same move. Alice has 60 left for the next batch.
    expect(await first).toEqual(['reserved', 'settled', 'reserved', 'reserved', 'gone', 'quota']);
    expect(await second).toEqual(['balance', 'reserved']);
    expect(batches).toBe(3);
    expect(await balanceOf(alice.user.id)).toBe(1_000 - 40 - 900);
    expect(await balanceOf(bob.user.id)).toBe(1_000 - 201);
    expect((await repositories.keys.find(bob.key.id))?.quota).toBe(250 - 201);
  });

  test('a long queue goes in batches of at most MAX_MOVES_PER_BATCH moves', async () => {
    const alice = await seedUser(10_000);
    const outcomes = await Promise.all(
      Array.from({ length: 2 * MAX_MOVES_PER_BATCH + 1 }, () => moves.submit(alice.reserve(1))),
    );
    expect(outcomes.every((outcome) => outcome === 'reserved')).toBe(true);
    expect(batches).toBe(3);
    expect(await balanceOf(alice.user.id)).toBe(10_000 - 2 * MAX_MOVES_PER_BATCH - 1);
  });

  test('a move the database refuses fails alone: the rest of its batch lands', async () => {
    const alice = await seedUser(1_000);
    const taken = alice.reserve(10);
    await moves.submit(taken);
    const outcomes = await Promise.allSettled([
      moves.submit(alice.reserve(20)),
      // The same hold twice: the insert's unique key refuses it, and the batch rolls back whole.
      moves.submit({ ...alice.reserve(30), id: taken.id }),
      moves.submit(alice.reserve(40)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('holds_pkey');
    expect(await balanceOf(alice.user.id)).toBe(1_000 - 10 - 20 - 40);
    // The batch, then each of its three moves alone.
    expect(batches).toBe(1 + 1 + 3);
  });

  test('text PostgreSQL cannot store reaches the record as U+FFFD, and the settlement lands', async () => {
    const alice = await seedUser(1_000);
    const taken = alice.reserve(10);
    await moves.submit(taken);
    const ledger = openPostgresMoneyLedger(store.db);
    const settled = await ledger.settle(
      {
        id: taken.id,
        userId: alice.user.id,
        keyId: taken.key_id,
        keyCapped: taken.key_capped,
        amount: 10,
        createdAt: taken.created_at,
        model: taken.model,
      },
      5,
      usageRecord({ userId: alice.user.id, error: 'upstream said \0 and \ud800 alone' }),
    );
    expect(settled).toBe(true);
    const { rows } = await sql<{ error: string }>`select error from holds where id = ${taken.id}`.execute(
      store.db,
    );
    expect(rows[0]?.error).toBe('upstream said \uFFFD and \uFFFD alone');
  });

  test('three instances moving the money of the same users at once: every move lands, the books exact', async () => {
    const others = [0, 1].map(() =>
      openStore({ dataDir: ':memory:', databaseUrl: process.env.DATABASE_URL, postgresSchema: store.schema }),
    );
    try {
      const users = await Promise.all(Array.from({ length: 8 }, () => seedUser(1_000_000, 1_000_000)));
      const instances = [moves, ...others.map((other) => new PostgresMoneyMoves(other.db))];
      const rounds = 20;
      const shuffled = <Item>(items: Item[]) =>
        items
          .map((item) => ({ item, order: Math.random() }))
          .sort((a, b) => a.order - b.order)
          .map(({ item }) => item);
      await Promise.all(
        instances.map(async (instance) => {
          for (let round = 0; round < rounds; round += 1) {
            const reserved = shuffled(users).map((user) => user.reserve(1_000));
            const taken = await Promise.all(reserved.map((move) => instance.submit(move)));
            expect(taken.every((outcome) => outcome === 'reserved')).toBe(true);
            const settled = await Promise.all(
              shuffled(reserved.map((move, index) => ({ move, index }))).map(({ move, index }) =>
                instance.submit(
                  users.find((user) => user.user.id === move.user_id)!.settle(move.id, 600 + index),
                ),
              ),
            );
            expect(settled.every((outcome) => outcome === 'settled')).toBe(true);
          }
        }),
      );
      for (const { user, key } of users) {
        const spent = (await repositories.users.find(user.id))!;
        expect(spent.balance + spent.used).toBe(1_000_000);
        expect((await repositories.keys.find(key.id))!.usedQuota).toBe(spent.used);
        expect((await repositories.keys.find(key.id))!.quota).toBe(1_000_000 - spent.used);
      }
      const { rows } = await sql<{ open: number }>`select count(*)::integer as open from holds
        where status_code is null`.execute(store.db);
      expect(rows[0]?.open).toBe(0);
      const { rows: charged } = await sql<{ total: number }>`select coalesce(sum(cost), 0)::bigint as total
        from holds`.execute(store.db);
      const used = await Promise.all(
        users.map(async ({ user }) => (await repositories.users.find(user.id))!.used),
      );
      expect(Number(charged[0]?.total)).toBe(used.reduce((sum, value) => sum + value, 0));
      expect(Number(charged[0]?.total)).toBe(
        instances.length * rounds * users.length * 600 + instances.length * rounds * 28,
      );
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });

  test('a batch chosen as the victim of a deadlock is sent again and lands once', async () => {
    const first = await seedUser(1_000);
    const second = await seedUser(1_000);
    await store.db.connection().execute(async (other) => {
      // Another instance's transaction holds the second user's row, then asks for the first's
      // while the batch holds it: a cycle. Its own deadlock check waits longer, so the batch's
      // check finds the cycle first and the batch is rolled back.
      await sql`begin`.execute(other);
      await sql`set local deadlock_timeout = '20s'`.execute(other);
      await sql`update users set balance = balance where id = ${second.user.id}`.execute(other);
      const batch = Promise.all([moves.submit(second.reserve(200)), moves.submit(first.reserve(100))]);
      await waitForLockWait(store.db);
      await sql`update users set balance = balance - 1 where id = ${first.user.id}`.execute(other);
      await sql`commit`.execute(other);
      expect(await batch).toEqual(['reserved', 'reserved']);
    });
    // Sent again at least once; a busy machine can make the resent batch meet the same cycle again.
    expect(batches).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(first.user.id)).toBe(1_000 - 1 - 100);
    expect(await balanceOf(second.user.id)).toBe(1_000 - 200);
  }, 15_000);
});

test('a batch that fails for another reason (the connection lost) fails each of its moves', async () => {
  let calls = 0;
  const unreachable = {
    executeQuery: async () => {
      calls += 1;
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
    },
  } as unknown as Kysely<Database>;
  const moves = new PostgresMoneyMoves(unreachable);
  const reserve = (id: string): ReserveMove => ({
    kind: 'reserve',
    id,
    owner: 'o',
    user_id: 1,
    key_id: 1,
    key_capped: false,
    amount: 1,
    model: 'm',
    endpoint: 'chat-completions',
    stream: false,
    created_at: 1,
  });
  const outcomes = await Promise.allSettled([moves.submit(reserve('a')), moves.submit(reserve('b'))]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  expect(calls).toBe(1);
});

test('storable text leaves well-formed text alone and replaces NUL and lone surrogates', () => {
  expect(storableText('plain, and a pair: \ud83d\ude00')).toBe('plain, and a pair: \ud83d\ude00');
  expect(storableText('\0a\udc00b\ud800')).toBe('\uFFFDa\uFFFDb\uFFFD');
});

/** Resolves once some session waits for a lock while holding one on this schema's `users`. */
async function waitForLockWait(db: Kysely<Database>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ waiting: number }>`select count(*)::integer as waiting from pg_locks waiter
      where not waiter.granted and exists (select 1 from pg_locks held
        join pg_class on pg_class.oid = held.relation
        join pg_namespace on pg_namespace.oid = pg_class.relnamespace
        where held.pid = waiter.pid and pg_namespace.nspname = current_schema() and pg_class.relname = 'users')`.execute(
      db,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
