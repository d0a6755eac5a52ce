import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../fakes/fake-stripe.js';

/**
 * The fake Stripe proven with the official `stripe` package as its client: what it accepts, refuses
 * and answers is what the package sends and expects of Stripe.
 */
let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

function client(key = fake.secretKey, options: Stripe.StripeConfig = {}): Stripe {
  const url = new URL(fake.origin);
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
    ...options,
  });
}

const params = (orderId = 'ord_test'): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    {
      price_data: { currency: 'usd', unit_amount: 1250, product_data: { name: 'API balance top-up' } },
      quantity: 1,
    },
  ],
  client_reference_id: orderId,
  metadata: { order_id: orderId },
  success_url: 'http://127.0.0.1:3000/topup?order=ord_test',
  cancel_url: 'http://127.0.0.1:3000/topup?order=ord_test&canceled=1',
});

describe('Checkout Sessions', () => {
  test('a session made with the package has Stripe’s shape, and the fake read the bracket-encoded form', async () => {
    const session = await client().checkout.sessions.create(params());
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 1250,
      currency: 'usd',
      client_reference_id: 'ord_test',
      metadata: { order_id: 'ord_test' },
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(session.url).toBe(`${fake.origin}/c/pay/${session.id}`);
    const request = fake.requests.at(-1)!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    expect(request.form).toEqual({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'usd', unit_amount: '1250', product_data: { name: 'API balance top-up' } },
          quantity: '1',
        },
      ],
      client_reference_id: 'ord_test',
      metadata: { order_id: 'ord_test' },
      success_url: 'http://127.0.0.1:3000/topup?order=ord_test',
      cancel_url: 'http://127.0.0.1:3000/topup?order=ord_test&canceled=1',
    });
    expect(await client().checkout.sessions.retrieve(session.id)).toMatchObject({
      id: session.id,
      status: 'open',
    });
  });

  test('a session follows the test controls, and expires through the API', async () => {
    const stripe = client();
    const paid = await stripe.checkout.sessions.create(params());
    fake.completeSession(paid.id);
    expect(await stripe.checkout.sessions.retrieve(paid.id)).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: expect.stringMatching(/^pi_/),
    });
    const open = await stripe.checkout.sessions.create(params());
    expect(await stripe.checkout.sessions.expire(open.id)).toMatchObject({ status: 'expired' });
    await expect(stripe.checkout.sessions.expire(paid.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  test('a wrong, missing or publishable key is refused with 401 as Stripe refuses it', async () => {
    const before = fake.sessions.size;
    const wrong = 'sk_test_0000000000000000000000000000wxyz';
    const refusal = await client(wrong)
      .checkout.sessions.create(params())
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(refusal).toMatchObject({ statusCode: 401 });
    expect((refusal as Error).message).toContain('Invalid API Key provided: sk_test_');
    expect((refusal as Error).message).toContain('wxyz');
    expect((refusal as Error).message).not.toContain(wrong);
    await expect(client('pk_test_123').checkout.sessions.create(params())).rejects.toMatchObject({
      statusCode: 401,
    });
    const bare = await fetch(`${fake.origin}/v1/checkout/sessions/cs_test_x`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(fake.sessions.size).toBe(before);
  });

  test.each([
    ['mode', { mode: undefined }],
    ['line_items', { line_items: undefined }],
    ['success_url', { success_url: undefined }],
    [
      'line_items[0][price_data][unit_amount]',
      { line_items: [{ price_data: { currency: 'usd', product_data: { name: 'x' } }, quantity: 1 }] },
    ],
    [
      'line_items[0][quantity]',
      { line_items: [{ price_data: { currency: 'usd', unit_amount: 100, product_data: { name: 'x' } } }] },
    ],
  ] as const)('a session without %s is refused as Stripe refuses it', async (param, change) => {
    const before = fake.sessions.size;
    const refusal = await client()
      .checkout.sessions.create({ ...params(), ...change } as Stripe.Checkout.SessionCreateParams)
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refusal).toMatchObject({ statusCode: 400, code: 'parameter_missing', param });
    expect(fake.sessions.size).toBe(before);
  });

  test('an embedded session needs no success_url; an unknown parameter or a total under $0.50 is refused', async () => {
    const embedded = await client().checkout.sessions.create({
      ...params(),
      success_url: undefined,
      cancel_url: undefined,
      ui_mode: 'embedded_page',
      return_url: 'http://127.0.0.1:3000/done',
    });
    expect(embedded).toMatchObject({
      ui_mode: 'embedded_page',
      url: null,
      client_secret: expect.any(String),
    });
    await expect(
      client().checkout.sessions.create({
        ...params(),
        colour: 'blue',
      } as Stripe.Checkout.SessionCreateParams),
    ).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });
    await expect(
      client().checkout.sessions.create({
        ...params(),
        line_items: [
          { price_data: { currency: 'usd', unit_amount: 49, product_data: { name: 'x' } }, quantity: 1 },
        ],
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'line_items' });
  });

  test('an unknown session is a 404 resource_missing', async () => {
    await expect(client().checkout.sessions.retrieve('cs_test_nothing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });
});

describe('idempotency', () => {
  test('the same key and parameters answer the same session again; other parameters are an idempotency error', async () => {
    const stripe = client();
    const first = await stripe.checkout.sessions.create(params('ord_idem'), { idempotencyKey: 'ord_idem' });
    const again = await stripe.checkout.sessions.create(params('ord_idem'), { idempotencyKey: 'ord_idem' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const refusal = await stripe.checkout.sessions
      .create(params('ord_other'), { idempotencyKey: 'ord_idem' })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(fake.requests.at(-1)!.headers['idempotency-key']).toBe('ord_idem');
  });

  test('an answer lost on the way is asked for again by the package with the same key: one session', async () => {
    const before = fake.sessions.size;
    fake.script({ type: 'answer-then-reset' });
    const session = await client(fake.secretKey, { maxNetworkRetries: 2 }).checkout.sessions.create(
      params('ord_lost'),
      {
        idempotencyKey: 'ord_lost',
      },
    );
    expect(fake.sessions.size).toBe(before + 1);
    expect(fake.sessions.get(session.id)).toBeDefined();
    const attempts = fake.requests.filter((request) => request.headers['idempotency-key'] === 'ord_lost');
    expect(attempts).toHaveLength(2);
  });

  test('a scripted server error reaches the package as an API error', async () => {
    fake.script({ type: 'error', status: 500 });
    await expect(client().checkout.sessions.retrieve('cs_test_x')).rejects.toBeInstanceOf(
      Stripe.errors.StripeAPIError,
    );
  });
});

describe('webhooks', () => {
  /** A receiver that checks deliveries with the package, as a merchant's server does. */
  async function receiver(tolerance: number) {
    const verified: Stripe.Event[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        try {
          const event = Stripe.webhooks.constructEvent(
            Buffer.concat(chunks),
            request.headers['stripe-signature'] ?? '',
            fake.webhookSecret,
            tolerance,
          );
          verified.push(event);
          response.writeHead(200).end('{}');
        } catch (error) {
          response.writeHead(400).end(JSON.stringify({ error: (error as Error).message }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return { url, verified, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  test('events signed by the fake pass the package’s check; a wrong secret or an old signature does not', async () => {
    const target = await receiver(300);
    try {
      const session = await client().checkout.sessions.create(params('ord_hook'));
      fake.completeSession(session.id);
      const event = fake.event('checkout.session.completed', session.id);
      expect(await fake.deliver(target.url, event)).toMatchObject({ status: 200 });
      expect(target.verified[0]).toMatchObject({
        id: event.id,
        type: 'checkout.session.completed',
        data: { object: { id: session.id, payment_status: 'paid', metadata: { order_id: 'ord_hook' } } },
      });
      expect((await fake.deliver(target.url, event, { secret: 'whsec_wrong' })).status).toBe(400);
      const old = Math.floor(Date.now() / 1000) - 301;
      expect((await fake.deliver(target.url, event, { timestamp: old })).status).toBe(400);
      expect((await fake.deliver(target.url, event, { signature: null })).status).toBe(400);
      expect(target.verified).toHaveLength(1);
    } finally {
      await target.close();
    }
  });

  test('the pay page completes its session, delivers checkout.session.completed and returns to success_url', async () => {
    const target = await receiver(300);
    try {
      fake.webhookUrl = target.url;
      const session = await client().checkout.sessions.create(params('ord_page'));
      const page = await fetch(session.url!);
      expect(await page.text()).toContain('$12.50');
      const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(session.success_url);
      expect(fake.session(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
      expect(target.verified.map((event) => event.type)).toEqual(['checkout.session.completed']);
    } finally {
      fake.webhookUrl = undefined;
      await target.close();
    }
  });
});
