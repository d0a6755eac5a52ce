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
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * Admin-api section 3, rule 6, against the real process: money held by requests in flight when
 * the gateway is killed comes back, each such request leaves one `interrupted` record, and nothing
 * is returned twice.
 */
const TOKEN = 'crash-test-admin-token';
const UPSTREAM_KEY = 'crash-upstream-key';
const START_BALANCE = 100;
const START_QUOTA = 5;
const nano = (usd: number) => Math.round(usd * 1e9);

let fast: FakeUpstream;
let slow: FakeUpstream;
const dirs: string[] = [];

beforeAll(async () => {
  await ensureGatewayBuilt();
  fast = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  slow = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  // Streams get two chunks and then silence; JSON replies never end.
  slow.scriptAlways({ type: 'stall', afterChunks: 2 });
}, 120_000);
afterAll(async () => {
  await fast.close();
  await slow.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Seeded {
  userId: number;
  unlimitedKey: string;
  cappedKey: string;
  cappedKeyId: number;
}

async function seed(origin: string): Promise<Seeded> {
  const call = (method: string, route: string, body?: unknown) =>
    adminCall(origin, TOKEN, method, route, body);
  for (const [model, upstream] of [
    ['fast-model', fast],
    ['slow-model', slow],
  ] as const) {
    await call('POST', '/channels', {
      name: model,
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: [model],
    });
    await call('PUT', `/prices/${model}`, { input: 3, output: 15 });
  }
  const user = await call('POST', '/users', { username: 'crash', balance: START_BALANCE });
  const unlimited = await call('POST', '/keys', { user_id: user.id });
  const capped = await call('POST', '/keys', {
    user_id: user.id,
    unlimited_quota: false,
    quota: START_QUOTA,
  });
  return { userId: user.id, unlimitedKey: unlimited.key, cappedKey: capped.key, cappedKeyId: capped.id };
}

function chat(origin: string, key: string, model: string, stream: boolean, signal?: AbortSignal) {
  return fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      stream,
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Tell me a long story about a lighthouse keeper.' }],
    }),
    signal,
  });
}

/** Sends `count` slow requests (every other one streamed) and waits until the upstream has them all. */
async function putInFlight(origin: string, keys: string[], count: number, controller: AbortController) {
  const before = slow.requests.length;
  const pending = Array.from({ length: count }, (_, index) =>
    chat(origin, keys[index % keys.length]!, 'slow-model', index % 2 === 0, controller.signal)
      .then((response) => response.body?.getReader().read())
      .catch(() => undefined),
  );
  for (let waited = 0; slow.requests.length - before < count; waited += 20) {
    if (waited > 20_000)
      throw new Error(`only ${slow.requests.length - before} of ${count} reached the upstream`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return pending;
}

interface Books {
  balance: number;
  quota: number;
  used: number;
  logs: any[];
}

async function books(origin: string, seeded: Seeded): Promise<Books> {
  // Logs first: callers wait for a record count, and a recovery that commits between these reads
  // must then already show in the balance read after it.
  const logs = (await adminCall(origin, TOKEN, 'GET', '/logs?limit=1000')).data;
  const user = await adminCall(origin, TOKEN, 'GET', `/users/${seeded.userId}`);
  const key = await adminCall(origin, TOKEN, 'GET', `/keys/${seeded.cappedKeyId}`);
  return { balance: user.balance, quota: key.quota, used: user.used, logs };
}

/** Balance + logged costs = the start balance, to the nano-dollar; the same for the capped key's quota. */
function expectBooksBalanced(books: Books, seeded: Seeded, expectedLogs: number) {
  const costs = books.logs.reduce((sum, log) => sum + nano(log.cost), 0);
  const keyCosts = books.logs
    .filter((log) => log.key_id === seeded.cappedKeyId)
    .reduce((sum, log) => sum + nano(log.cost), 0);
  expect(nano(books.balance) + costs).toBe(nano(START_BALANCE));
  expect(nano(books.used)).toBe(costs);
  expect(nano(books.quota) + keyCosts).toBe(nano(START_QUOTA));
  expect(books.logs).toHaveLength(expectedLogs);
  expect(new Set(books.logs.map((log) => log.request_id)).size).toBe(expectedLogs);
}

function expectInterrupted(logs: any[], count: number) {
  const interrupted = logs.filter((log) => log.error === 'interrupted');
  expect(interrupted).toHaveLength(count);
  for (const log of interrupted) expect(log).toMatchObject({ status_code: 0, cost: 0, model: 'slow-model' });
}

test('SQLite: requests in flight at SIGKILL get their money back on restart, once', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-crash-'));
  dirs.push(dataDir);
  const env = { GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: TOKEN };
  let gateway: BuiltGateway = await startBuiltGateway(env);
  const seeded = await seed(gateway.origin);
  for (const [index, key] of [seeded.unlimitedKey, seeded.cappedKey, seeded.unlimitedKey].entries()) {
    const response = await chat(gateway.origin, key, 'fast-model', index === 1);
    expect(response.status).toBe(200);
    await response.text();
  }

  const clients = new AbortController();
  const pending = await putInFlight(gateway.origin, [seeded.unlimitedKey, seeded.cappedKey], 50, clients);
  const during = await books(gateway.origin, seeded);
  expect(nano(during.balance)).toBeLessThan(nano(START_BALANCE) - 50 * 7_000_000); // 50 pre-charges held
  await killBuiltGateway(gateway);
  clients.abort();
  await Promise.all(pending);

  gateway = await startBuiltGateway(env);
  const after = await books(gateway.origin, seeded);
  expectBooksBalanced(after, seeded, 53);
  expectInterrupted(after.logs, 50);

  await killBuiltGateway(gateway);
  gateway = await startBuiltGateway(env);
  const again = await books(gateway.origin, seeded);
  expect(again).toEqual(after);
  expect(await stopBuiltGateway(gateway)).toBe(0);
}, 90_000);

interface Load {
  /** Request ids of the replies the clients received whole (a non-streamed body, a stream to `[DONE]`). */
  completed: string[];
  sent: number;
  stop(): Promise<void>;
}

/** `connections` clients, each sending fast requests one after another (every other one streamed). */
function keepBusy(origin: string, keys: string[], connections: number): Load {
  const clients = new AbortController();
  const completed: string[] = [];
  let sent = 0;
  const loops = Array.from({ length: connections }, async (_, client) => {
    for (let turn = 0; !clients.signal.aborted; turn++) {
      const stream = (client + turn) % 2 === 0;
      sent++;
      try {
        const response = await chat(origin, keys[turn % keys.length]!, 'fast-model', stream, clients.signal);
        const body = await response.text();
        const whole = stream ? body.trimEnd().endsWith('data: [DONE]') : JSON.parse(body).usage !== undefined;
        if (response.status === 200 && whole) completed.push(response.headers.get('x-gateway-request-id')!);
      } catch {
        // The gateway died under this request.
      }
    }
  });
  return {
    completed,
    get sent() {
      return sent;
    },
    async stop() {
      clients.abort();
      await Promise.all(loops);
    },
  };
}

/** No money held: balance and used add up to the start balance. */
const nothingHeld = (books: Books) => nano(books.balance) + nano(books.used) === nano(START_BALANCE);

/**
 * Kills the gateway while requests are being reserved, answered and settled in group commits,
 * restarts it (until no money is held any more) and checks that every request has exactly one
 * record and every reservation came back or was charged, once; then once more after a second kill.
 */
async function killUnderLoad(env: Record<string, string>): Promise<void> {
  let gateway = await startBuiltGateway(env);
  const seeded = await seed(gateway.origin);
  const upstreamBefore = fast.requests.length;
  const load = keepBusy(gateway.origin, [seeded.unlimitedKey, seeded.cappedKey], 24);
  while (load.completed.length < 300) await new Promise((resolve) => setTimeout(resolve, 10));
  await killBuiltGateway(gateway);
  await load.stop();
  const reachedUpstream = fast.requests.length - upstreamBefore;

  gateway = await startBuiltGateway(env);
  let after = await books(gateway.origin, seeded);
  for (let waited = 0; !nothingHeld(after); waited += 250) {
    if (waited > 30_000) throw new Error('the holds of the killed process were not returned');
    await new Promise((resolve) => setTimeout(resolve, 250));
    after = await books(gateway.origin, seeded);
  }
  expectBooksBalanced(after, seeded, after.logs.length);
  // Every request that reached the upstream left its record, and none more than one.
  expect(after.logs.length).toBeGreaterThanOrEqual(reachedUpstream);
  expect(after.logs.length).toBeLessThanOrEqual(load.sent);
  const recorded = new Map(after.logs.map((log) => [log.request_id, log]));
  for (const id of load.completed) expect(recorded.get(id)?.status_code ?? 'missing').toBeOneOf([200, 0]);
  for (const log of after.logs) {
    if (log.status_code === 200) expect(nano(log.cost)).toBeGreaterThan(0);
    else expect(log).toMatchObject({ status_code: 0, cost: 0, error: 'interrupted' });
  }
  // Some requests were still in flight at the kill, and most of those answered were settled.
  expect(after.logs.filter((log) => log.error === 'interrupted').length).toBeGreaterThan(0);
  expect(after.logs.filter((log) => log.status_code === 200).length).toBeGreaterThan(250);

  await killBuiltGateway(gateway);
  gateway = await startBuiltGateway(env);
  expect(await books(gateway.origin, seeded)).toEqual(after);
  expect(await stopBuiltGateway(gateway)).toBe(0);
}

test('SQLite: a kill under load, in the middle of group commits, loses no record and charges none twice', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-crash-'));
  dirs.push(dataDir);
  await killUnderLoad({ GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: TOKEN });
}, 90_000);

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

test.runIf(databaseUrl && redisUrl)(
  'PostgreSQL, two instances: a live instance returns the holds of the one killed, and only those',
  async () => {
    const schema = uniqueSchemaName();
    const env = {
      DATABASE_URL: databaseUrl!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl!,
      GATEWAY_ADMIN_TOKEN: TOKEN,
      GATEWAY_LEASE_TTL_S: '3',
    };
    const started: BuiltGateway[] = [];
    try {
      const doomed = await startBuiltGateway(env);
      started.push(doomed);
      let survivor = await startBuiltGateway(env);
      started.push(survivor);
      const seeded = await seed(doomed.origin);
      const keys = [seeded.unlimitedKey, seeded.cappedKey];
      const done = await chat(survivor.origin, seeded.cappedKey, 'fast-model', false);
      expect(done.status).toBe(200);
      await done.text();

      const clients = new AbortController();
      const onDoomed = await putInFlight(doomed.origin, keys, 40, clients);
      const survivorClients = new AbortController();
      const onSurvivor = await putInFlight(survivor.origin, keys, 10, survivorClients);
      const before = await books(survivor.origin, seeded);
      await killBuiltGateway(doomed);
      clients.abort();
      await Promise.all(onDoomed);

      // The survivor notices within its lease checks (at most 60 s by the rules; seconds here).
      let recovered = before;
      for (let waited = 0; recovered.logs.length < 41; waited += 250) {
        if (waited > 60_000) throw new Error('the holds of the killed instance were not returned');
        await new Promise((resolve) => setTimeout(resolve, 250));
        recovered = await books(survivor.origin, seeded);
      }
      expectInterrupted(recovered.logs, 40);
      // The survivor's own 10 requests still run: their money is still held.
      const heldBySurvivor = nano(START_BALANCE) - nano(recovered.balance) - nano(recovered.used);
      expect(heldBySurvivor).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await books(survivor.origin, seeded)).toEqual(recovered);

      await killBuiltGateway(survivor);
      survivorClients.abort();
      await Promise.all(onSurvivor);
      survivor = await startBuiltGateway(env);
      started.push(survivor);
      const final = await books(survivor.origin, seeded);
      expectBooksBalanced(final, seeded, 51);
      expectInterrupted(final.logs, 50);
    } finally {
      for (const gateway of started) if (gateway.child.exitCode === null) await killBuiltGateway(gateway);
      await dropSchema(databaseUrl!, schema);
    }
  },
  120_000,
);

test.runIf(databaseUrl)(
  'PostgreSQL: a kill under load, in the middle of batched money moves, loses no record and charges none twice',
  async () => {
    const schema = uniqueSchemaName();
    try {
      await killUnderLoad({
        DATABASE_URL: databaseUrl!,
        DATABASE_SCHEMA: schema,
        GATEWAY_ADMIN_TOKEN: TOKEN,
        GATEWAY_LEASE_TTL_S: '2',
      });
    } finally {
      await dropSchema(databaseUrl!, schema);
    }
  },
  120_000,
);
