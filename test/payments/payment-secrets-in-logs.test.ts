import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import { startFakeStripe, type FakeStripe } from '../fakes/fake-stripe.js';
import { signedInClient } from '../helpers/console-client.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * Admin-api section 15: the Stripe secret key and webhook secret never reach the logs, at the most
 * detailed level, through every path that logs about payments: settings changed, Stripe refusing
 * a key, Stripe failing, webhooks refused and accepted, the reconciler's checks.
 */
const lines: string[] = [];
let stripe: FakeStripe;
let gateway: Gateway;
let gw: TestGateway;

beforeAll(async () => {
  stripe = await startFakeStripe();
  const logger = createLogger('trace', 'json', { write: (line: string) => void lines.push(line) });
  gateway = await createGateway(
    {
      ...readEnvironment({}),
      dataDir: ':memory:',
      adminToken: TEST_ADMIN_TOKEN,
      logLevel: 'trace',
      settings: { trusted_proxies: ['127.0.0.1', '::1'] },
    },
    logger,
  );
  const origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  gw = {
    gateway,
    origin,
    async admin(method, path, body) {
      const response = await fetch(`${origin}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: (graceMs) => gateway.close(graceMs),
  };
});
afterAll(async () => {
  await gw?.close();
  await stripe?.close();
});

test('neither Stripe secret appears in any log line', async () => {
  const wrongKey = `sk_test_${randomBytes(16).toString('hex')}`;
  expect(
    (
      await gw.admin('PATCH', '/settings', {
        stripe_secret_key: wrongKey,
        stripe_webhook_secret: stripe.webhookSecret,
        stripe_api_base: stripe.origin,
        topup_reconcile_after_s: 1,
      })
    ).status,
  ).toBe(200);
  const user = await gw.admin('POST', '/users', {
    username: 'logged-buyer',
    password: 'logged buyer password',
  });
  const client = await signedInClient(gw, { username: 'logged-buyer', password: 'logged buyer password' });

  // Stripe refuses the key; then Stripe fails; then a top-up goes through.
  expect((await client.call('POST', '/me/topup', { body: { amount: 5 } })).status).toBe(502);
  await gw.admin('PATCH', '/settings', { stripe_secret_key: stripe.secretKey });
  stripe.script(
    { type: 'error', status: 500 },
    { type: 'error', status: 500 },
    { type: 'error', status: 500 },
  );
  expect((await client.call('POST', '/me/topup', { body: { amount: 5 } })).status).toBe(502);
  const started = await client.call<{ order_id: string }>('POST', '/me/topup', { body: { amount: 5 } });
  expect(started.status).toBe(200);
  const sessionId = (await gw.admin('GET', `/orders/${started.body.order_id}`)).body.provider_ref as string;

  // Webhooks refused, and accepted.
  stripe.completeSession(sessionId);
  const event = stripe.event('checkout.session.completed', sessionId);
  const url = `${gw.origin}/api/webhooks/stripe`;
  expect((await stripe.deliver(url, event, { secret: 'whsec_wrongwrongwrong' })).status).toBe(400);
  expect((await stripe.deliver(url, event, { timestamp: Math.floor(Date.now() / 1000) - 400 })).status).toBe(
    400,
  );
  expect((await stripe.deliver(url, event)).status).toBe(200);

  // The reconciler, failing to check and then checking.
  const second = await client.call<{ order_id: string }>('POST', '/me/topup', { body: { amount: 6 } });
  await gateway.services.store.db
    .updateTable('orders')
    .set((eb) => ({ created_at: eb('created_at', '-', 60) }))
    .where('id', '=', second.body.order_id)
    .execute();
  stripe.script({ type: 'error', status: 401 });
  await gateway.services.topupReconciler.run();
  await gateway.services.store.db.updateTable('orders').set({ next_check_at: null }).execute();
  await gateway.services.topupReconciler.run();
  expect(user.status).toBe(201);

  const logged = lines.join('\n');
  // The paths above did log: failures at warn, every request in the access log.
  expect(logged).toContain('Stripe did not make a Checkout Session');
  expect(logged).toContain('could not check an order with Stripe');
  expect(logged).toContain('/api/webhooks/stripe');
  for (const secret of [stripe.secretKey, stripe.webhookSecret, wrongKey]) {
    expect(logged).not.toContain(secret);
    // Nor the part after the prefix, whatever masks the prefix.
    expect(logged).not.toContain(secret.slice(8, 24));
  }
});
