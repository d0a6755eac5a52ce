import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../fakes/fake-stripe.js';
import {
  adminCall,
  ensureGatewayBuilt,
  killBuiltGateway,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * Admin-api section 15 against the real process: a gateway killed (SIGKILL) after Stripe took a
 * payment and before the credit, restarted, credits the order through its reconciler, exactly once.
 */
const TOKEN = 'topup-crash-admin-token';
const PASSWORD = 'topup crash password';
const RECONCILE_AFTER_S = 2;

let stripe: FakeStripe;
const dirs: string[] = [];
beforeAll(async () => {
  await ensureGatewayBuilt();
  stripe = await startFakeStripe();
}, 120_000);
afterAll(async () => {
  await stripe.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Variant {
  name: string;
  env(): Record<string, string>;
  cleanUp(): Promise<void>;
}

const variants: Variant[] = [
  {
    name: 'SQLite',
    env() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-topup-crash-'));
      dirs.push(dataDir);
      return { GATEWAY_DATA_DIR: dataDir };
    },
    cleanUp: async () => undefined,
  },
];
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  const schema = uniqueSchemaName();
  variants.push({
    name: 'PostgreSQL',
    env: () => ({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema }),
    cleanUp: () => dropSchema(databaseUrl, schema),
  });
}

/** Signs a user in and starts a top-up through the console API; the order id. */
async function topUp(origin: string, username: string, amount: number): Promise<string> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookies = Object.fromEntries(
    login.headers.getSetCookie().map((header) => header.split(';')[0]!.split('=') as [string, string]),
  );
  const response = await fetch(`${origin}/api/me/topup`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: `gw_session=${cookies.gw_session}; gw_csrf=${cookies.gw_csrf}`,
      'x-csrf-token': cookies.gw_csrf!,
    },
    body: JSON.stringify({ amount }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { order_id: string }).order_id;
}

/** Waits until the order is paid, or fails after a while. */
async function paidOrder(origin: string, orderId: string): Promise<any> {
  for (let waited = 0; ; waited += 100) {
    const order = await adminCall(origin, TOKEN, 'GET', `/orders/${orderId}`);
    if (order.status === 'paid') return order;
    if (waited > 15_000) throw new Error(`order ${orderId} not paid: ${JSON.stringify(order)}`);
    await sleep(100);
  }
}

/** Sleeps until the order is old enough for the reconciler of a process started now. */
async function untilDue(order: { created_at: number }): Promise<void> {
  const dueAtMs = (order.created_at + RECONCILE_AFTER_S + 1) * 1000;
  await sleep(Math.max(0, dueAtMs - Date.now()) + 50);
}

const credited = (order: { events: Array<{ type: string }> }) =>
  order.events.filter((event) => event.type === 'credited').length;

describe.each(variants)('$name', (variant) => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = {
      ...variant.env(),
      GATEWAY_ADMIN_TOKEN: TOKEN,
      GATEWAY_STRIPE_SECRET_KEY: stripe.secretKey,
      GATEWAY_STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      GATEWAY_STRIPE_API_BASE: stripe.origin,
      GATEWAY_TOPUP_RECONCILE_AFTER_S: String(RECONCILE_AFTER_S),
    };
  });
  afterAll(() => variant.cleanUp());

  test('paid at Stripe, killed before any webhook: the restarted gateway credits the order once', async () => {
    let gateway: BuiltGateway = await startBuiltGateway(env);
    const user = await adminCall(gateway.origin, TOKEN, 'POST', '/users', {
      username: `crash-${variant.name.toLowerCase()}`,
      password: PASSWORD,
    });
    const orderId = await topUp(gateway.origin, user.username, 42);
    const pending = await adminCall(gateway.origin, TOKEN, 'GET', `/orders/${orderId}`);
    stripe.completeSession(pending.provider_ref);
    await killBuiltGateway(gateway);

    await untilDue(pending);
    gateway = await startBuiltGateway(env);
    const paid = await paidOrder(gateway.origin, orderId);
    expect(credited(paid)).toBe(1);
    expect(paid.events.find((event: { type: string }) => event.type === 'credited').detail.by).toBe(
      'reconciler',
    );
    expect((await adminCall(gateway.origin, TOKEN, 'GET', `/users/${user.id}`)).balance).toBe(42);

    // Killed and started again, and the webhook arriving at last: still one credit.
    await killBuiltGateway(gateway);
    gateway = await startBuiltGateway(env);
    const late = await stripe.deliver(
      `${gateway.origin}/api/webhooks/stripe`,
      stripe.event('checkout.session.completed', pending.provider_ref),
    );
    expect(late).toMatchObject({ status: 200, body: { outcome: 'already_paid' } });
    expect(credited(await adminCall(gateway.origin, TOKEN, 'GET', `/orders/${orderId}`))).toBe(1);
    expect((await adminCall(gateway.origin, TOKEN, 'GET', `/users/${user.id}`)).balance).toBe(42);
    expect(await stopBuiltGateway(gateway)).toBe(0);
  }, 90_000);

  test('killed while the webhook is in flight: the restarted gateway credits the order once', async () => {
    let gateway: BuiltGateway = await startBuiltGateway(env);
    const user = await adminCall(gateway.origin, TOKEN, 'POST', '/users', {
      username: `flight-${variant.name.toLowerCase()}`,
      password: PASSWORD,
    });
    const orderId = await topUp(gateway.origin, user.username, 17.5);
    const pending = await adminCall(gateway.origin, TOKEN, 'GET', `/orders/${orderId}`);
    stripe.completeSession(pending.provider_ref);

    // Stripe's delivery: the headers and half the signed body are in when the process dies.
    const payload = JSON.stringify(stripe.event('checkout.session.completed', pending.provider_ref));
    const { port } = new URL(gateway.origin);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /api/webhooks/stripe HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(payload)}`,
        `Stripe-Signature: ${stripe.sign(payload)}`,
        '',
        payload.slice(0, payload.length / 2),
      ].join('\r\n'),
    );
    await sleep(200);
    await killBuiltGateway(gateway);
    socket.destroy();

    await untilDue(pending);
    gateway = await startBuiltGateway(env);
    const paid = await paidOrder(gateway.origin, orderId);
    expect(credited(paid)).toBe(1);
    expect((await adminCall(gateway.origin, TOKEN, 'GET', `/users/${user.id}`)).balance).toBe(17.5);

    // Stripe retries the delivery that got no answer: nothing more is credited.
    const retried = await stripe.deliver(`${gateway.origin}/api/webhooks/stripe`, JSON.parse(payload));
    expect(retried).toMatchObject({ status: 200, body: { outcome: 'already_paid' } });
    expect((await adminCall(gateway.origin, TOKEN, 'GET', `/users/${user.id}`)).balance).toBe(17.5);
    expect(await stopBuiltGateway(gateway)).toBe(0);
  }, 90_000);
});
