import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import type { Payments } from '../../src/payments/payments.js';
import { StripeClients } from '../../src/payments/stripe-clients.js';
import { TopupReconciler } from '../../src/payments/topup-reconciler.js';
import { openStore, type Store } from '../../src/store/database.js';
import { JobLeasesRepository } from '../../src/store/job-leases-repository.js';
import { createRepositories } from '../../src/store/repositories.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { startTopupFixture, type TopupFixture } from './topup-fixture.js';

/**
 * Admin-api section 15: pending orders older than `topup_reconcile_after_s` are checked against
 * Stripe, so a lost webhook never loses a payment; with the webhook at the same moment, once.
 */
describe.each(gatewayVariants())('top-up reconciler on $name', (variant) => {
  let fx: TopupFixture;
  beforeAll(async () => {
    fx = await startTopupFixture(variant, { settings: { topup_reconcile_after_s: 1 } });
  });
  afterAll(() => fx?.close());

  const reconcile = () => fx.gw.gateway.services.topupReconciler.run();
  const retrievals = (sessionId: string) =>
    fx.stripe.requests.filter((request) => request.method === 'GET' && request.path.endsWith(`/${sessionId}`))
      .length;

  test('a payment whose webhook was lost is credited once the order is older than topup_reconcile_after_s', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(15);
    fx.stripe.completeSession(sessionId);
    await reconcile();
    expect(retrievals(sessionId)).toBe(0);
    expect(await fx.balance()).toBe(before);

    // Created in second T, the order is due once the clock reads T + 2 or later.
    await sleep(2_050);
    await reconcile();
    expect(retrievals(sessionId)).toBe(1);
    expect(await fx.balance()).toBe(before + 15);
    expect(await fx.credits(orderId)).toHaveLength(1);
    const order = await fx.order(orderId);
    expect(order).toMatchObject({ status: 'paid' });
    expect(order.events.slice(-2)).toMatchObject([
      { type: 'checked', detail: { session: sessionId, status: 'complete', payment_status: 'paid' } },
      { type: 'credited', detail: { by: 'reconciler' } },
    ]);
    // Paid orders are not checked again, and a webhook arriving late credits nothing.
    await reconcile();
    expect(retrievals(sessionId)).toBe(1);
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('already_paid');
    expect(await fx.balance()).toBe(before + 15);
  });

  test('an order whose session expired unpaid is expired; one still open is left and checked again later', async () => {
    const expired = await fx.topUp(5);
    const open = await fx.topUp(5);
    fx.stripe.expireSession(expired.sessionId);
    await fx.age(expired.orderId, 10);
    await fx.age(open.orderId, 10);
    await reconcile();
    expect(await fx.order(expired.orderId)).toMatchObject({ status: 'expired' });
    expect((await fx.order(expired.orderId)).events.at(-1)).toMatchObject({
      type: 'expired',
      detail: { by: 'reconciler' },
    });
    expect((await fx.order(open.orderId)).status).toBe('pending');
    expect(retrievals(open.sessionId)).toBe(1);
    // Not again within the minute: an order left open is checked less often as it ages.
    await reconcile();
    expect(retrievals(open.sessionId)).toBe(1);
  });

  test('a check Stripe fails is recorded and tried again later; the order stays pending', async () => {
    const { orderId, sessionId } = await fx.topUp(5);
    fx.stripe.completeSession(sessionId);
    await fx.age(orderId, 10);
    fx.stripe.script(
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
    );
    await reconcile();
    const order = await fx.order(orderId);
    expect(order.status).toBe('pending');
    expect(order.events.at(-1)).toMatchObject({
      type: 'checked',
      detail: { error: expect.stringContaining('500') },
    });
    await fx.gw.gateway.services.store.db
      .updateTable('orders')
      .set({ next_check_at: null })
      .where('id', '=', orderId)
      .execute();
    await reconcile();
    expect((await fx.order(orderId)).status).toBe('paid');
  });

  test('an order that never got its session is expired once nobody can have paid it', async () => {
    const db = fx.gw.gateway.services.store.db;
    const fresh = await fx.topUp(5);
    const stale = await fx.topUp(5);
    await db
      .updateTable('orders')
      .set({ provider_ref: null })
      .where('id', 'in', [fresh.orderId, stale.orderId])
      .execute();
    await fx.age(fresh.orderId, 600);
    await fx.age(stale.orderId, 3_600);
    await reconcile();
    expect((await fx.order(stale.orderId)).status).toBe('expired');
    expect((await fx.order(fresh.orderId)).status).toBe('pending');
  });

  test('a webhook and the reconciler racing for one order credit it once, every time', async () => {
    const before = await fx.balance();
    const rounds = 15;
    const outcomes: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const { orderId, sessionId } = await fx.topUp(1);
      fx.stripe.completeSession(sessionId);
      await fx.age(orderId, 10);
      // Head starts from one side to the other, so that each side goes first in some rounds and
      // the two meet in others.
      const offsets = [0, 5, 10, 20, 40];
      fx.stripe.script({ type: 'delay', ms: offsets[round % 5]! });
      const [delivered] = await Promise.all([
        sleep(offsets[4 - (round % 5)]!).then(() => fx.deliver('checkout.session.completed', sessionId)),
        reconcile(),
      ]);
      outcomes.push(delivered.body.outcome);
      expect(await fx.credits(orderId)).toHaveLength(1);
      const events = (await fx.order(orderId)).events.map((event: { type: string }) => event.type);
      expect(events.filter((type: string) => type === 'credited')).toHaveLength(1);
    }
    expect(await fx.balance()).toBe(before + rounds);
    // Both took part: some rounds the webhook won, in others the reconciler did.
    expect(new Set(outcomes)).toEqual(new Set(['credited', 'already_paid']));
  });

  test('two reconcilers sharing the database check each order once, one at a time', async () => {
    const services = fx.gw.gateway.services;
    const databaseUrl = process.env.DATABASE_URL;
    // A second instance: on PostgreSQL with a connection pool of its own.
    const second: Store =
      services.store.dialect === 'postgres'
        ? openStore({ dataDir: ':memory:', databaseUrl, postgresSchema: services.store.schema })
        : services.store;
    try {
      const payments: Payments = {
        store: second,
        repositories: createRepositories(second),
        settings: () => services.settings.get(),
        stripe: new StripeClients(),
        balanceRaised: async () => undefined,
        logger: createLogger('silent'),
      };
      const other = new TopupReconciler({ payments, leases: new JobLeasesRepository(second.db) });
      const orders = [await fx.topUp(1), await fx.topUp(1), await fx.topUp(1)];
      for (const order of orders) await fx.age(order.orderId, 10);
      fx.stripe.delayMs = 100;
      try {
        await Promise.all([reconcile(), other.run()]);
      } finally {
        fx.stripe.delayMs = 0;
      }
      for (const order of orders) expect(retrievals(order.sessionId)).toBe(1);

      // The lease was let go: the other instance runs the next time.
      const later = await fx.topUp(1);
      fx.stripe.completeSession(later.sessionId);
      await fx.age(later.orderId, 10);
      await other.run();
      expect((await fx.order(later.orderId)).status).toBe('paid');
      await other.stop();
    } finally {
      if (second !== services.store) await second.close();
    }
  });

  test('without a Stripe key the reconciler leaves orders as they are', async () => {
    const { orderId, sessionId } = await fx.topUp(1);
    fx.stripe.completeSession(sessionId);
    await fx.age(orderId, 10);
    await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: null });
    try {
      await reconcile();
      expect(retrievals(sessionId)).toBe(0);
      expect((await fx.order(orderId)).status).toBe('pending');
    } finally {
      await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: fx.stripe.secretKey });
    }
    await reconcile();
    expect((await fx.order(orderId)).status).toBe('paid');
  });
});
