import OpenAI from 'openai';
import { expect } from 'vitest';
import type { Environment } from '../../src/config/environment.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

export const databaseUrl = process.env.DATABASE_URL;
export const redisUrl = process.env.REDIS_URL;

/** SQLite always; PostgreSQL (a schema of its own) when `DATABASE_URL` is set. */
export function gatewayVariants(): { name: string; gateway: Partial<Environment> }[] {
  return [
    { name: 'sqlite', gateway: {} },
    ...(databaseUrl
      ? [{ name: 'postgres', gateway: { databaseUrl, databaseSchema: uniqueSchemaName() } }]
      : []),
  ];
}

export const WEBHOOK_SECRET = 'whsec-test-0123456789abcdef';

export interface Customer {
  userId: number;
  keyId: number;
  openai: OpenAI;
}

export interface WebhookFixture {
  fx: RelayFixture;
  receiver: WebhookReceiver;
  /** A user of its own with one key, `user` and `key` members given at creation. */
  customer(options?: { user?: object; key?: object }): Promise<Customer>;
  /** One small chat completion, settled (its money move done) before it resolves. */
  ask(customer: Customer): Promise<void>;
  /** Runs delivery rounds until the receiver holds `count` requests of events of `type`; those. */
  receivedOf(type: string, count: number): Promise<ReceivedWebhook[]>;
  /** `GET /api/webhook-deliveries` */
  deliveries(): Promise<any[]>;
  /** Makes every pending event due now, as if its retry wait had passed. */
  makePendingDue(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A relay fixture (admin-api section 10.1) whose `webhook_url` is a loopback receiver and whose
 * `webhook_secret` is `WEBHOOK_SECRET`. Delivery rounds run on the gateway's own 1 s timer and,
 * to keep waits short, whenever a test waits for an event.
 */
export async function startWebhookFixture(gateway: Partial<Environment>): Promise<WebhookFixture> {
  const fx = await startRelayFixture({ balance: 100, gateway });
  const receiver = await startWebhookReceiver();
  const settings = await fx.gw.admin('PATCH', '/settings', {
    webhook_url: receiver.url,
    webhook_secret: WEBHOOK_SECRET,
  });
  expect(settings.status).toBe(200);
  const { services } = fx.gw.gateway;
  let sequence = 0;

  return {
    fx,
    receiver,
    async customer(options = {}) {
      sequence += 1;
      const user = await fx.gw.admin('POST', '/users', {
        username: `hooked${sequence}`,
        balance: 10,
        ...options.user,
      });
      expect(user.status).toBe(201);
      const key = await fx.gw.admin('POST', '/keys', { user_id: user.body.id, ...options.key });
      expect(key.status).toBe(201);
      const openai = new OpenAI({ apiKey: key.body.key, baseURL: `${fx.gw.origin}/v1`, maxRetries: 0 });
      return { userId: user.body.id, keyId: key.body.id, openai };
    },
    async ask(customer) {
      await customer.openai.chat.completions.create({
        model: 'gpt-4o',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
      });
      await services.tracker.settled();
    },
    receivedOf: (type, count) =>
      waitFor(
        async () => {
          await services.webhooks.round();
          return receiver.received.filter((each) => each.body?.type === type);
        },
        (events) => events.length >= count,
        { timeoutMs: 5_000, what: `${count} ${type} events at the receiver` },
      ),
    async deliveries() {
      const response = await fx.gw.admin('GET', '/webhook-deliveries');
      expect(response.status).toBe(200);
      return response.body.data;
    },
    async makePendingDue() {
      await services.store.db
        .updateTable('webhook_events')
        .set({ next_attempt_at: 0 })
        .where('status', '=', 'pending')
        .execute();
    },
    async close() {
      await fx.close();
      await receiver.close();
      if (gateway.databaseSchema) await dropSchema(databaseUrl!, gateway.databaseSchema);
    },
  };
}
