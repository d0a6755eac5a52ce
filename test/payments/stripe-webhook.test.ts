import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { startTopupFixture, type TopupFixture } from './topup-fixture.js';

/** Admin-api section 15, `POST /api/webhooks/stripe`: signed deliveries credit an order exactly once. */
describe.each(gatewayVariants())('Stripe webhook on $name', (variant) => {
  let fx: TopupFixture;
  beforeAll(async () => {
    fx = await startTopupFixture(variant);
  });
  afterAll(() => fx?.close());

  const eventTypes = async (orderId: string) =>
    (await fx.order(orderId)).events.map((event: { type: string }) => event.type);

  test('checkout.session.completed with payment_status paid credits the order once; a replay credits nothing more', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(25.5);
    fx.stripe.completeSession(sessionId);
    const event = fx.stripe.event('checkout.session.completed', sessionId);
    const delivered = await fx.stripe.deliver(fx.webhookUrl, event);
    expect(delivered).toEqual({ status: 200, body: { received: true, outcome: 'credited' } });
    expect(await fx.balance()).toBe(before + 25.5);
    expect(await fx.credits(orderId)).toEqual([{ amount: 25_500_000_000, user_id: fx.user.id }]);
    const order = await fx.order(orderId);
    expect(order).toMatchObject({ status: 'paid', paid_at: expect.any(Number) });
    expect(order.events.at(-1)).toMatchObject({
      type: 'credited',
      detail: { by: 'webhook', session: sessionId },
    });

    // Stripe retries with a new signature time; the event id is what stays.
    const replayed = await fx.stripe.deliver(fx.webhookUrl, event, {
      timestamp: Math.floor(Date.now() / 1000) + 1,
    });
    expect(replayed).toEqual({ status: 200, body: { received: true, outcome: 'already_paid' } });
    expect(await fx.balance()).toBe(before + 25.5);
    expect(await fx.credits(orderId)).toHaveLength(1);
    expect(await eventTypes(orderId)).toEqual([
      'created',
      'checkout_created',
      'webhook_received',
      'credited',
      'webhook_replayed',
    ]);
    const users = await fx.client.call<{ data: any[] }>('GET', '/me/orders');
    expect(users.body.data.find((entry) => entry.id === orderId)).toMatchObject({
      status: 'paid',
      amount: 25.5,
    });
  });

  test('10 concurrent deliveries of the same event credit once', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(10);
    fx.stripe.completeSession(sessionId);
    const event = fx.stripe.event('checkout.session.completed', sessionId);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fx.stripe.deliver(fx.webhookUrl, event)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.body.outcome === 'credited')).toHaveLength(1);
    expect(await fx.credits(orderId)).toHaveLength(1);
    expect(await fx.balance()).toBe(before + 10);
    expect((await eventTypes(orderId)).filter((type: string) => type === 'credited')).toHaveLength(1);
  });

  test('completed and async_payment_succeeded for one order, at once, credit once', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(3);
    fx.stripe.completeSession(sessionId);
    await Promise.all([
      fx.deliver('checkout.session.completed', sessionId),
      fx.deliver('checkout.session.async_payment_succeeded', sessionId),
      fx.deliver('checkout.session.completed', sessionId),
    ]);
    expect(await fx.credits(orderId)).toHaveLength(1);
    expect(await fx.balance()).toBe(before + 3);
  });

  test('a delayed payment: completed unpaid leaves the order pending; async_payment_succeeded credits it', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(6);
    fx.stripe.completeSession(sessionId, { paymentStatus: 'unpaid' });
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('open');
    expect((await fx.order(orderId)).status).toBe('pending');
    expect(await fx.balance()).toBe(before);
    fx.stripe.completeSession(sessionId, { paymentStatus: 'paid' });
    expect((await fx.deliver('checkout.session.async_payment_succeeded', sessionId)).body.outcome).toBe(
      'credited',
    );
    expect(await fx.balance()).toBe(before + 6);
  });

  test('a delayed payment that fails expires the order', async () => {
    const { orderId, sessionId } = await fx.topUp(6);
    fx.stripe.completeSession(sessionId, { paymentStatus: 'unpaid' });
    expect((await fx.deliver('checkout.session.async_payment_failed', sessionId)).body.outcome).toBe(
      'expired',
    );
    expect((await fx.order(orderId)).status).toBe('expired');
  });

  test('checkout.session.expired marks the order expired; a payment arriving after all still credits it', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(4);
    fx.stripe.expireSession(sessionId);
    expect((await fx.deliver('checkout.session.expired', sessionId)).body.outcome).toBe('expired');
    expect(await fx.order(orderId)).toMatchObject({ status: 'expired', paid_at: null });
    expect(await fx.balance()).toBe(before);

    // Money was taken: the expired order is paid and credited, once.
    fx.stripe.session(sessionId).status = 'open';
    fx.stripe.completeSession(sessionId);
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('credited');
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('already_paid');
    expect(await fx.order(orderId)).toMatchObject({ status: 'paid' });
    expect(await fx.balance()).toBe(before + 4);
    // An expiry reported late changes nothing.
    const late = await fx.topUp(4);
    await fx.gw.gateway.services.store.db
      .updateTable('orders')
      .set({ status: 'paid' })
      .where('id', '=', late.orderId)
      .execute();
    fx.stripe.expireSession(late.sessionId);
    expect((await fx.deliver('checkout.session.expired', late.sessionId)).body.outcome).toBe('not_pending');
    expect((await fx.order(late.orderId)).status).toBe('paid');
  });

  test('a paid amount or currency other than the order’s is not credited; the order is held back and says why', async () => {
    const before = await fx.balance();
    for (const change of [{ amountTotal: 100 }, { currency: 'eur' }]) {
      const { orderId, sessionId } = await fx.topUp(5);
      fx.stripe.completeSession(sessionId, change);
      expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe(
        'amount_mismatch',
      );
      const order = await fx.order(orderId);
      expect(order).toMatchObject({ status: 'pending', problem: 'amount_mismatch' });
      expect(order.events.at(-1)).toMatchObject({
        type: 'amount_mismatch',
        detail: { expected: { amount_total: 500, currency: 'usd' } },
      });
      expect(await fx.credits(orderId)).toHaveLength(0);
      // Held back: neither a replay nor the reconciler credits it.
      await fx.deliver('checkout.session.completed', sessionId);
      await fx.age(orderId, 3600);
      await fx.gw.gateway.services.topupReconciler.run();
      expect(await fx.credits(orderId)).toHaveLength(0);
    }
    expect(await fx.balance()).toBe(before);
  });

  test('a wrong, missing or too old signature is a 400, and nothing is credited', async () => {
    const before = await fx.balance();
    const { orderId, sessionId } = await fx.topUp(2);
    fx.stripe.completeSession(sessionId);
    const event = fx.stripe.event('checkout.session.completed', sessionId);
    const attempts = [
      { secret: 'whsec_someoneelse0000000000000' },
      { signature: null },
      { signature: 't=1,v1=00' },
      { timestamp: Math.floor(Date.now() / 1000) - 301 },
    ];
    for (const attempt of attempts) {
      const answer = await fx.stripe.deliver(fx.webhookUrl, event, attempt);
      expect(answer.status, JSON.stringify(attempt)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_signature' });
      expect(answer.body.error.message).not.toContain(fx.stripe.webhookSecret.slice(-4));
    }
    const old = await fx.stripe.deliver(fx.webhookUrl, event, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(old.body.error.message).toContain('older than 300 seconds');
    // The body the signature covers, changed: the signature no longer matches.
    const payload = JSON.stringify(event);
    const tampered = await fetch(fx.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': fx.stripe.sign(payload) },
      body: payload.replace('"paid"', '"paid" '),
    });
    expect(tampered.status).toBe(400);
    expect(await fx.credits(orderId)).toHaveLength(0);
    expect(await fx.balance()).toBe(before);
    // A signature a minute old is fine.
    const recent = await fx.stripe.deliver(fx.webhookUrl, event, {
      timestamp: Math.floor(Date.now() / 1000) - 60,
    });
    expect(recent.body.outcome).toBe('credited');
  });

  test('the bytes are checked as received: the same event, formatted otherwise and signed as sent, is accepted', async () => {
    const { orderId, sessionId } = await fx.topUp(2);
    fx.stripe.completeSession(sessionId);
    const payload = `  ${JSON.stringify(fx.stripe.event('checkout.session.completed', sessionId))}\n`;
    const answer = await fetch(fx.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': fx.stripe.sign(payload),
      },
      body: payload,
    });
    expect(answer.status).toBe(200);
    expect(await fx.credits(orderId)).toHaveLength(1);
  });

  test('other event types and sessions of no order of ours are acknowledged and ignored', async () => {
    const { orderId, sessionId } = await fx.topUp(2);
    fx.stripe.completeSession(sessionId);
    expect(await fx.deliver('payment_intent.succeeded', sessionId)).toEqual({
      status: 200,
      body: { received: true, outcome: 'ignored' },
    });
    fx.stripe.session(sessionId).metadata = { order_id: 'ord_unknown' };
    fx.stripe.session(sessionId).client_reference_id = null;
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('ignored');
    expect(await fx.credits(orderId)).toHaveLength(0);
  });

  test('without a signing secret the webhook answers 503, so that Stripe retries later', async () => {
    const { sessionId } = await fx.topUp(2);
    await fx.gw.admin('PATCH', '/settings', { stripe_webhook_secret: null });
    try {
      const answer = await fx.deliver('checkout.session.completed', sessionId);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: 'webhook_not_configured' });
    } finally {
      await fx.gw.admin('PATCH', '/settings', { stripe_webhook_secret: fx.stripe.webhookSecret });
    }
  });

  test('a paid order of a deleted user is held back, not lost', async () => {
    const buyer = await fx.newUser();
    const { orderId, sessionId } = await fx.topUp(11, buyer.client);
    expect((await fx.gw.admin('DELETE', `/users/${buyer.user.id}`)).status).toBe(200);
    fx.stripe.completeSession(sessionId);
    expect((await fx.deliver('checkout.session.completed', sessionId)).body.outcome).toBe('user_gone');
    const order = await fx.order(orderId);
    expect(order).toMatchObject({ user_id: null, status: 'pending', problem: 'user_deleted' });
    expect(order.events.at(-1)).toMatchObject({ type: 'user_gone' });
  });
});
