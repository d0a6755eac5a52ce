import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import {
  adminCall,
  ensureGatewayBuilt,
  killBuiltGateway,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { databaseUrl } from './webhook-fixture.js';

/**
 * Admin-api section 10.1 against the real process: delivery is decided durably, so an event
 * delivered before a SIGKILL is not sent again after the restart, and one whose attempt was in
 * flight at the kill (the receiver had it, no answer yet) is delivered by the restarted process.
 */
const TOKEN = 'webhook-restart-admin-token';
const UPSTREAM_KEY = 'webhook-restart-upstream-key';

let upstream: FakeUpstream;
let receiver: WebhookReceiver;
const dirs: string[] = [];

beforeAll(async () => {
  await ensureGatewayBuilt();
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  receiver = await startWebhookReceiver();
}, 180_000);
afterAll(async () => {
  await upstream?.close();
  await receiver?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** What the dead process left: one event's row, read and changed straight in its database. */
interface DeadStore {
  row(id: string): Promise<{ status: string; attempts: number; next_attempt_at: number }>;
  /** Lets the attempt's 30 s claim lapse at once, as if the restart had come that much later. */
  lapseClaims(): Promise<void>;
}

async function seed(origin: string): Promise<string> {
  const call = (method: string, route: string, body?: unknown) =>
    adminCall(origin, TOKEN, method, route, body);
  await call('POST', '/channels', {
    name: 'primary',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o'],
  });
  await call('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  const user = await call('POST', '/users', { username: 'restarted', balance: 10 });
  const key = await call('POST', '/keys', {
    user_id: user.id,
    budgets: [{ period: 'day', requests: 10, alert_at: [0.1, 0.2] }],
  });
  return key.key;
}

async function ask(origin: string, key: string): Promise<void> {
  const response = await fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

const deliveries = async (origin: string): Promise<any[]> =>
  (await adminCall(origin, TOKEN, 'GET', '/webhook-deliveries')).data;

async function deliveredIds(origin: string, count: number): Promise<string[]> {
  const listed = await waitFor(
    () => deliveries(origin),
    (list) => list.filter((delivery) => delivery.status === 'delivered').length >= count,
    { timeoutMs: 10_000, what: `${count} delivered events` },
  );
  return listed.filter((delivery) => delivery.status === 'delivered').map((delivery) => delivery.id);
}

async function killMidDeliveryAndRestart(env: Record<string, string>, deadStore: DeadStore): Promise<void> {
  receiver.received.length = 0;
  receiver.setMode({ kind: 'answer', status: 200 });
  let gateway: BuiltGateway = await startBuiltGateway(env);
  try {
    const key = await seed(gateway.origin);
    await ask(gateway.origin, key);
    const [first] = await deliveredIds(gateway.origin, 1);
    expect(receiver.ids()).toEqual([first]);

    // The next event's attempt reaches a receiver that keeps it without answering; then the kill.
    receiver.setMode({ kind: 'hang' });
    await ask(gateway.origin, key);
    await waitFor(
      () => receiver.received.length,
      (count) => count === 2,
      { timeoutMs: 10_000, what: 'the second event at the receiver' },
    );
    const second = receiver.ids()[1]!;
    expect(second).not.toBe(first);
    await killBuiltGateway(gateway);
    expect(await deadStore.row(second)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await deadStore.row(first!)).toMatchObject({ status: 'delivered', attempts: 1 });

    await deadStore.lapseClaims();
    receiver.setMode({ kind: 'answer', status: 200 });
    gateway = await startBuiltGateway(env);
    expect(await deliveredIds(gateway.origin, 2)).toEqual(expect.arrayContaining([first, second]));
    // The round that delivered the second read every due event: the first, had it been due
    // again, would have gone out in it (a round takes up to 16).
    expect(receiver.ids()).toEqual([first, second, second]);
    expect((await deliveries(gateway.origin)).map((delivery) => delivery.attempts).sort()).toEqual([1, 2]);
    expect(await stopBuiltGateway(gateway)).toBe(0);
  } finally {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) await killBuiltGateway(gateway);
  }
}

const webhookEnvironment = () => ({
  GATEWAY_ADMIN_TOKEN: TOKEN,
  GATEWAY_WEBHOOK_URL: receiver.url,
  GATEWAY_WEBHOOK_SECRET: 'restart-secret',
});

test('SQLite: a delivered event is not sent again after a SIGKILL; one in flight at the kill is delivered after it', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-webhooks-'));
  dirs.push(dataDir);
  const withDatabase = <T>(use: (database: Database.Database) => T): T => {
    const database = new Database(path.join(dataDir, 'gateway.sqlite'));
    try {
      return use(database);
    } finally {
      database.close();
    }
  };
  await killMidDeliveryAndRestart(
    { ...webhookEnvironment(), GATEWAY_DATA_DIR: dataDir },
    {
      row: async (id) =>
        withDatabase(
          (database) =>
            database
              .prepare('select status, attempts, next_attempt_at from webhook_events where id = ?')
              .get(id) as { status: string; attempts: number; next_attempt_at: number },
        ),
      lapseClaims: async () =>
        void withDatabase((database) =>
          database.prepare("update webhook_events set next_attempt_at = 0 where status = 'pending'").run(),
        ),
    },
  );
}, 60_000);

test.runIf(databaseUrl)(
  'PostgreSQL: a delivered event is not sent again after a SIGKILL; one in flight at the kill is delivered after it',
  async () => {
    const schema = uniqueSchemaName();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await killMidDeliveryAndRestart(
        { ...webhookEnvironment(), DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema },
        {
          async row(id) {
            const { rows } = await client.query(
              `select status, attempts, next_attempt_at from "${schema}".webhook_events where id = $1`,
              [id],
            );
            return rows[0];
          },
          async lapseClaims() {
            await client.query(
              `update "${schema}".webhook_events set next_attempt_at = 0 where status = 'pending'`,
            );
          },
        },
      );
    } finally {
      await client.end();
      await dropSchema(databaseUrl!, schema);
    }
  },
  60_000,
);
