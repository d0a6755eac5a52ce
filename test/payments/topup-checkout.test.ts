import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, expectApiError, type ErrorBody } from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { startTopupFixture, type TopupFixture } from './topup-fixture.js';

/** Admin-api section 15, `POST /api/me/topup` and the orders it makes, against a fake Stripe. */
describe.each(gatewayVariants())('top-up checkout on $name', (variant) => {
  let fx: TopupFixture;
  beforeAll(async () => {
    fx = await startTopupFixture(variant);
  });
  afterAll(() => fx?.close());

  test('makes the order first, then a Checkout Session of that many cents that names the order', async () => {
    const before = fx.stripe.requests.length;
    const response = await fx.client.call<{ order_id: string; url: string }>('POST', '/me/topup', {
      body: { amount: 12.34 },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['order_id', 'url']);
    const { order_id: orderId, url } = response.body;
    expect(orderId).toMatch(/^ord_[A-Za-z0-9_-]{24}$/);

    const calls = fx.stripe.requests.slice(before);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(call!.headers.authorization).toBe(`Bearer ${fx.stripe.secretKey}`);
    expect(call!.headers['idempotency-key']).toBe(orderId);
    const origin = fx.gw.origin;
    expect(call!.form).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: '1234', product_data: { name: 'API balance top-up' } },
          quantity: '1',
        },
      ],
      client_reference_id: orderId,
      metadata: { order_id: orderId, user_id: String(fx.user.id) },
      success_url: `${origin}/topup?order=${orderId}`,
      cancel_url: `${origin}/topup?order=${orderId}&canceled=1`,
    });
    const session = [...fx.stripe.sessions.values()].find(
      (candidate) => candidate.client_reference_id === orderId,
    )!;
    expect(url).toBe(session.url);

    const order = await fx.order(orderId);
    expect(order).toMatchObject({
      id: orderId,
      user_id: fx.user.id,
      amount: 12.34,
      status: 'pending',
      provider: 'stripe',
      provider_ref: session.id,
      paid_at: null,
      problem: null,
    });
    expect(order.events.map((event: { type: string }) => event.type)).toEqual([
      'created',
      'checkout_created',
    ]);
    expect(await fx.balance()).toBe(0);
  });

  test('return links follow the scheme a trusted proxy reports', async () => {
    const response = await fx.client.call<{ order_id: string }>('POST', '/me/topup', {
      body: { amount: 5 },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(200);
    expect(fx.stripe.requests.at(-1)!.form.success_url).toBe(
      `${fx.gw.origin.replace('http:', 'https:')}/topup?order=${response.body.order_id}`,
    );
  });

  test.each([
    ['under topup_min_usd', { amount: 0.99 }, 'must be at least 1 USD'],
    ['zero', { amount: 0 }, ''],
    ['finer than a cent', { amount: 10.005 }, 'whole cents'],
    ['over what Stripe takes in one payment', { amount: 1_000_000 }, ''],
    ['given as text', { amount: '10' }, ''],
    ['missing', {}, ''],
  ])('refuses an amount %s, and makes no order', async (_label, body, problem) => {
    const sessions = fx.stripe.sessions.size;
    const orders = (await fx.gw.admin('GET', '/orders?limit=1000')).body.data.length;
    const response = await fx.client.call<ErrorBody>('POST', '/me/topup', { body });
    expectApiError(response, 400, 'invalid_request', 'amount');
    expect(response.body.error.message).toContain(problem);
    expect(fx.stripe.sessions.size).toBe(sessions);
    expect((await fx.gw.admin('GET', '/orders?limit=1000')).body.data.length).toBe(orders);
  });

  test('follows topup_min_usd as it changes', async () => {
    await fx.gw.admin('PATCH', '/settings', { topup_min_usd: 20 });
    try {
      expectApiError(
        await fx.client.call('POST', '/me/topup', { body: { amount: 19.99 } }),
        400,
        'invalid_request',
        'amount',
      );
      expect((await fx.client.call('POST', '/me/topup', { body: { amount: 20 } })).status).toBe(200);
    } finally {
      await fx.gw.admin('PATCH', '/settings', { topup_min_usd: 1 });
    }
  });

  test('needs a session with its CSRF token; the root admin has no balance to top up', async () => {
    expectApiError(
      await fx.client.call('POST', '/me/topup', { body: { amount: 5 }, csrf: false }),
      403,
      'csrf_failed',
    );
    expectApiError(await callApi(fx.gw, 'POST', '/me/topup', { body: { amount: 5 } }), 401, 'unauthorized');
    const root = await fx.gw.admin('POST', '/me/topup', { amount: 5 });
    expect(root.status).toBe(403);
  });

  test('a Stripe refusal is a 502 without any secret; the order is expired and says why', async () => {
    await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: 'sk_test_wrongwrongwrongwrong1234' });
    try {
      const response = await fx.client.call<ErrorBody>('POST', '/me/topup', { body: { amount: 7 } });
      expectApiError(response, 502, 'payment_provider_error');
      expect(response.body.error.message).toContain('Invalid API Key provided');
      expect(response.body.error.message).not.toContain('wrongwrong');
      expect(response.body.error.message).not.toContain(fx.stripe.secretKey);
      const [order] = (await fx.gw.admin('GET', `/orders?user_id=${fx.user.id}&limit=1`)).body.data;
      expect(order).toMatchObject({ amount: 7, status: 'expired', provider_ref: null });
      expect(order.events.map((event: { type: string }) => event.type)).toEqual([
        'created',
        'checkout_failed',
        'expired',
      ]);
      expect(JSON.stringify(order.events)).not.toContain('wrongwrong');
    } finally {
      await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: fx.stripe.secretKey });
    }
  });

  test('Stripe failing to answer is a 502 too, once the package’s retries are spent', async () => {
    fx.stripe.script(
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
    );
    const response = await fx.client.call<ErrorBody>('POST', '/me/topup', { body: { amount: 8 } });
    expectApiError(response, 502, 'payment_provider_error');
    const [order] = (await fx.gw.admin('GET', `/orders?user_id=${fx.user.id}&limit=1`)).body.data;
    expect(order).toMatchObject({ amount: 8, status: 'expired' });
  });

  test('an answer lost on the way is asked for again with the order id as key: one session, and the top-up goes on', async () => {
    const before = fx.stripe.sessions.size;
    fx.stripe.script({ type: 'answer-then-reset' });
    const { orderId, sessionId } = await fx.topUp(9);
    expect(fx.stripe.sessions.size).toBe(before + 1);
    expect(fx.stripe.session(sessionId).client_reference_id).toBe(orderId);
  });

  test('without a Stripe key, top-up is refused with a clear 400 and no order', async () => {
    await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: null });
    try {
      const response = await fx.client.call<ErrorBody>('POST', '/me/topup', { body: { amount: 5 } });
      expectApiError(response, 400, 'topup_unavailable');
      expect(response.body.error.message).toContain('stripe_secret_key');
    } finally {
      await fx.gw.admin('PATCH', '/settings', { stripe_secret_key: fx.stripe.secretKey });
    }
  });

  test('a user sees their own orders, newest first and paginated; an admin sees all, filtered, with events', async () => {
    const other = await fx.newUser();
    const mine = [await fx.topUp(1), await fx.topUp(2), await fx.topUp(3)];
    const theirs = await fx.topUp(4, other.client);

    const own = await fx.client.call<{ data: any[] }>('GET', '/me/orders?limit=2');
    expect(own.status).toBe(200);
    expect(own.body.data.map((order) => order.id)).toEqual([mine[2]!.orderId, mine[1]!.orderId]);
    expect(own.body.data[0]).toEqual({
      id: mine[2]!.orderId,
      user_id: fx.user.id,
      amount: 3,
      status: 'pending',
      provider: 'stripe',
      provider_ref: mine[2]!.sessionId,
      created_at: expect.any(Number),
      paid_at: null,
      problem: null,
    });
    const next = await fx.client.call<{ data: any[] }>('GET', '/me/orders?limit=1&offset=2');
    expect(next.body.data.map((order) => order.id)).toEqual([mine[0]!.orderId]);
    const otherView = await other.client.call<{ data: any[] }>('GET', '/me/orders');
    expect(otherView.body.data.map((order) => order.id)).toEqual([theirs.orderId]);
    expect((await fx.client.call('GET', `/me/orders/${mine[0]!.orderId}`)).status).toBe(200);
    expectApiError(await fx.client.call('GET', `/me/orders/${theirs.orderId}`), 404, 'not_found');

    expectApiError(await fx.client.call('GET', '/orders'), 403, 'forbidden');
    const all = await fx.gw.admin('GET', '/orders?limit=1000');
    expect(all.body.data.map((order: { id: string }) => order.id)).toEqual(
      expect.arrayContaining([...mine.map((entry) => entry.orderId), theirs.orderId]),
    );
    const theirsOnly = await fx.gw.admin('GET', `/orders?user_id=${other.user.id}`);
    expect(theirsOnly.body.data).toHaveLength(1);
    expect(theirsOnly.body.data[0].events.map((event: { type: string }) => event.type)).toEqual([
      'created',
      'checkout_created',
    ]);
    expect(theirsOnly.body.data[0].events[1]).toMatchObject({
      at: expect.any(Number),
      detail: { session: theirs.sessionId },
    });
    const expired = await fx.gw.admin('GET', '/orders?status=expired&limit=1000');
    expect(expired.body.data.length).toBeGreaterThan(0);
    expect(expired.body.data.every((order: { status: string }) => order.status === 'expired')).toBe(true);
    expect((await fx.gw.admin('GET', '/orders?status=refunded')).status).toBe(400);
    expect((await fx.gw.admin('GET', '/orders/ord_nothing')).status).toBe(404);
  });

  test('the Stripe secrets are masked wherever settings are read', async () => {
    const settings = (await fx.gw.admin('GET', '/settings')).body;
    expect(settings.stripe_secret_key).toBe(
      `${fx.stripe.secretKey.slice(0, 4)}...${fx.stripe.secretKey.slice(-4)}`,
    );
    expect(settings.stripe_webhook_secret).toBe(
      `${fx.stripe.webhookSecret.slice(0, 4)}...${fx.stripe.webhookSecret.slice(-4)}`,
    );
    expect(settings.stripe_api_base).toBe(fx.stripe.origin);
    const patched = await fx.gw.admin('PATCH', '/settings', {
      stripe_webhook_secret: fx.stripe.webhookSecret,
    });
    expect(JSON.stringify(patched.body)).not.toContain(fx.stripe.webhookSecret);
    expect(JSON.stringify(patched.body)).not.toContain(fx.stripe.secretKey);
    expect(fx.gw.gateway.services.settings.get().stripe_secret_key).toBe(fx.stripe.secretKey);
  });
});
