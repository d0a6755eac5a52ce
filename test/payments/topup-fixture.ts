import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type Stripe from 'stripe';
import type { Environment } from '../../src/config/environment.js';
import { startFakeStripe, type FakeStripe } from '../fakes/fake-stripe.js';
import { signedInClient, type ConsoleClient } from '../helpers/console-client.js';
import type { GatewayVariant } from '../helpers/console-gateways.js';
import type { TestGateway } from '../helpers/start-test-gateway.js';

const PASSWORD = 'top-up password';

/** A gateway connected to a fake Stripe, and a user signed in to the console. */
export interface TopupFixture {
  gw: TestGateway;
  stripe: FakeStripe;
  user: { id: number; username: string };
  client: ConsoleClient;
  webhookUrl: string;
  /** Starts a top-up through `POST /api/me/topup`; fails the test unless it answers 200. */
  topUp(amount: number, client?: ConsoleClient): Promise<{ orderId: string; sessionId: string; url: string }>;
  /** A user's balance in USD, through the management API. */
  balance(userId?: number): Promise<number>;
  /** The `topup` credits written for an order. */
  credits(orderId: string): Promise<Array<{ amount: number; user_id: number }>>;
  order(orderId: string): Promise<any>;
  /** Sends Stripe's event about the order's session, signed, to the gateway. */
  deliver(
    type: string,
    sessionId: string,
    options?: { eventId?: string },
  ): Promise<{ status: number; body: any }>;
  /** Moves an order's creation back, so that the reconciler finds it due. */
  age(orderId: string, seconds: number): Promise<void>;
  newUser(): Promise<{ user: { id: number; username: string }; client: ConsoleClient }>;
  close(): Promise<void>;
}

export async function startTopupFixture(
  variant: GatewayVariant,
  options: { settings?: Record<string, unknown>; environment?: Partial<Environment> } = {},
): Promise<TopupFixture> {
  const stripe = await startFakeStripe();
  const gw = await variant.start(options.environment);
  const configured = await gw.admin('PATCH', '/settings', {
    stripe_secret_key: stripe.secretKey,
    stripe_webhook_secret: stripe.webhookSecret,
    stripe_api_base: stripe.origin,
    ...options.settings,
  });
  expect(configured.status).toBe(200);
  const newUser = async () => {
    const created = await gw.admin('POST', '/users', {
      username: `buyer-${randomBytes(4).toString('hex')}`,
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
    const client = await signedInClient(gw, { username: created.body.username, password: PASSWORD });
    return { user: created.body as { id: number; username: string }, client };
  };
  const { user, client } = await newUser();
  const db = gw.gateway.services.store.db;
  const fixture: TopupFixture = {
    gw,
    stripe,
    user,
    client,
    webhookUrl: `${gw.origin}/api/webhooks/stripe`,
    async topUp(amount, as = client) {
      const response = await as.call<{ order_id: string; url: string }>('POST', '/me/topup', {
        body: { amount },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const order = await fixture.order(response.body.order_id);
      return { orderId: response.body.order_id, sessionId: order.provider_ref, url: response.body.url };
    },
    async balance(userId = user.id) {
      return (await gw.admin('GET', `/users/${userId}`)).body.balance;
    },
    async credits(orderId) {
      const rows = await db
        .selectFrom('balance_credits')
        .select(['amount', 'user_id'])
        .where('kind', '=', 'topup')
        .where('reference', '=', orderId)
        .execute();
      return rows.map((row) => ({ amount: Number(row.amount), user_id: Number(row.user_id) }));
    },
    async order(orderId) {
      const response = await gw.admin('GET', `/orders/${orderId}`);
      expect(response.status).toBe(200);
      return response.body;
    },
    deliver(type, sessionId, deliverOptions = {}) {
      const event: Stripe.Event = stripe.event(type, sessionId, { id: deliverOptions.eventId });
      return stripe.deliver(fixture.webhookUrl, event);
    },
    async age(orderId, seconds) {
      await db
        .updateTable('orders')
        .set((eb) => ({ created_at: eb('created_at', '-', seconds) }))
        .where('id', '=', orderId)
        .execute();
    },
    newUser,
    async close() {
      await gw.close();
      await stripe.close();
    },
  };
  return fixture;
}
