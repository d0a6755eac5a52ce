import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import {
  ensureGatewayBuilt,
  killBuiltGateway,
  startBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { childPids, sendOnNewConnection, waitFor } from '../helpers/cluster-gateway.js';
import { parsePrometheusText, seriesOf, valueOf } from '../helpers/prometheus-text.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';
import { openStore } from '../../src/store/database.js';

/**
 * `GATEWAY_WORKERS=2` without Redis (admin-api section 9, DESIGN section 8): what one worker
 * learns, counts or holds is the machine's. Every request goes on a connection of its own, which
 * the primary hands to the workers in turn, so consecutive requests alternate between them.
 */
const TOKEN = 'workers-admin-token';
const UPSTREAM_KEY = 'workers-upstream-key';
const START_BALANCE = 100;
const nano = (usd: number) => Math.round(usd * 1e9);
const databaseUrl = process.env.DATABASE_URL;

interface UsageLog {
  request_id: string;
  model: string;
  cost: number;
  status_code: number;
  error: string | null;
}

interface Variant {
  name: string;
  /**
   * Only the change notices, which go through the primary with Redis too. Limits counted in Redis
   * are tested in test/limits (keys of other test runs share its counters); crashes and drains do
   * not depend on it.
   */
  changesOnly?: boolean;
  environment(): Record<string, string>;
  cleanUp(environment: Record<string, string>): Promise<void>;
}

const variants: Variant[] = [
  {
    name: 'SQLite',
    environment: (): Record<string, string> => ({
      GATEWAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gateway-workers-')),
    }),
    cleanUp: async (environment) => rmSync(environment.GATEWAY_DATA_DIR!, { recursive: true, force: true }),
  },
];
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  variants.push({
    name: 'SQLite, with Redis',
    changesOnly: true,
    environment: (): Record<string, string> => ({
      GATEWAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gateway-workers-')),
      REDIS_URL: redisUrl,
    }),
    cleanUp: async (environment) => rmSync(environment.GATEWAY_DATA_DIR!, { recursive: true, force: true }),
  });
}
if (databaseUrl) {
  variants.push({
    name: 'PostgreSQL',
    environment: (): Record<string, string> => ({
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: uniqueSchemaName(),
    }),
    async cleanUp(environment) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${environment.DATABASE_SCHEMA}" cascade`);
      await client.end();
    },
  });
}

let fast: FakeUpstream;
let stalled: FakeUpstream;
let slow: FakeUpstream;

beforeAll(async () => {
  await ensureGatewayBuilt();
  fast = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  stalled = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  stalled.scriptAlways({ type: 'stall', afterChunks: 2 });
  slow = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  slow.scriptAlways({ type: 'reply', delayMs: 1_500 });
}, 120_000);
afterAll(async () => {
  await Promise.all([fast?.close(), stalled?.close(), slow?.close()]);
});

describe.each(variants)('two workers on $name', (variant) => {
  const environment: Record<string, string> = {
    ...variant.environment(),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_WORKERS: '2',
  };
  let gateway: BuiltGateway;
  let userId: number;
  let key: string;
  let keyId: number;
  /** Management calls on connections of their own too: they go to either worker, and never to a dead one. */
  const admin = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const answer = await sendOnNewConnection(gateway.origin, {
      method,
      path: `/api${route}`,
      token: TOKEN,
      body,
    });
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${answer.text}`);
    return answer.text ? (JSON.parse(answer.text) as unknown) : undefined;
  };
  const chat = (model: string, options: { stream?: boolean; as?: string; signal?: AbortSignal } = {}) =>
    sendOnNewConnection(gateway.origin, {
      path: '/v1/chat/completions',
      token: options.as ?? key,
      body: {
        model,
        stream: options.stream ?? false,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
      },
      ...(options.signal && { signal: options.signal }),
    }).catch(() => ({ status: 0, text: '' }));
  const books = async () => {
    const user = (await admin('GET', `/users/${userId}`)) as { balance: number; used: number };
    const logs = ((await admin('GET', '/logs?limit=1000')) as { data: UsageLog[] }).data;
    return { balance: user.balance, used: user.used, logs };
  };
  type Books = Awaited<ReturnType<typeof books>>;
  const isBalanced = (current: Books) => {
    const costs = current.logs.reduce((sum, log) => sum + nano(log.cost), 0);
    return nano(current.balance) + costs === nano(START_BALANCE) && nano(current.used) === costs;
  };
  /** Settled records reach `usage_logs` in batches, moments after their answers. */
  const balancedBooks = async (logs: number) => {
    const current = await waitFor(books, (value) => value.logs.length === logs && isBalanced(value), {
      timeoutMs: 10_000,
      what: `${logs} usage records explaining every move of the balance`,
    });
    expect(new Set(current.logs.map((log) => log.request_id)).size).toBe(current.logs.length);
    return current;
  };

  beforeAll(async () => {
    gateway = await startBuiltGateway(environment);
    expect(gateway.lines.filter((line) => line.includes('gateway ready on'))).toHaveLength(1);
    expect(childPids(gateway.child.pid!)).toHaveLength(2);
    for (const [model, upstream] of [
      ['fast-model', fast],
      ['stalled-model', stalled],
      ['slow-model', slow],
    ] as const) {
      await admin('POST', '/channels', {
        name: model,
        type: 'openai',
        base_url: upstream.origin,
        keys: [UPSTREAM_KEY],
        models: [model],
      });
      await admin('PUT', `/prices/${model}`, { input: 3, output: 15 });
    }
    const user = (await admin('POST', '/users', { username: 'workers', balance: START_BALANCE })) as {
      id: number;
    };
    userId = user.id;
    ({ key, id: keyId } = (await admin('POST', '/keys', { user_id: userId })) as { key: string; id: number });
  }, 60_000);
  afterAll(async () => {
    if (gateway.child.exitCode === null && gateway.child.signalCode === null) await killBuiltGateway(gateway);
    await variant.cleanUp(environment);
  });

  test('a management change made through one worker is seen by the next request on either', async () => {
    const listed = async () => {
      const answer = await sendOnNewConnection(gateway.origin, { path: '/v1/models', token: key });
      expect(answer.status).toBe(200);
      return (JSON.parse(answer.text) as { data: { id: string }[] }).data.map((model) => model.id);
    };
    await admin('PUT', '/prices/fresh-model', { input: 1, output: 2 });
    for (let round = 0; round < 3; round += 1) {
      const channel = (await admin('POST', '/channels', {
        name: `fresh-${round}`,
        type: 'openai',
        base_url: fast.origin,
        keys: [UPSTREAM_KEY],
        models: ['fresh-model'],
      })) as { id: number };
      for (let index = 0; index < 4; index += 1) expect(await listed()).toContain('fresh-model');
      await admin('DELETE', `/channels/${channel.id}`);
      for (let index = 0; index < 4; index += 1) expect(await listed()).not.toContain('fresh-model');
    }

    await admin('PATCH', `/keys/${keyId}`, { status: 'disabled' });
    for (let index = 0; index < 6; index += 1)
      expect((await sendOnNewConnection(gateway.origin, { path: '/v1/models', token: key })).status).toBe(
        401,
      );
    await admin('PATCH', `/keys/${keyId}`, { status: 'enabled' });
    for (let index = 0; index < 6; index += 1) expect(await listed()).toContain('fast-model');
  });

  test("/metrics on either worker answers for the machine: both workers' requests, summed", async () => {
    const scrape = async () => {
      const answer = await sendOnNewConnection(gateway.origin, { path: '/metrics', token: TOKEN });
      expect(answer.status).toBe(200);
      const families = parsePrometheusText(answer.text);
      const requests = seriesOf(families, 'gateway_requests_total')
        .filter((sample) => sample.labels.model === 'fast-model' && sample.labels.status === '200')
        .reduce((sum, sample) => sum + sample.value, 0);
      const durations = valueOf(families, 'gateway_request_duration_seconds_count', {
        endpoint: 'chat-completions',
        stream: 'false',
      });
      return { requests, durations: durations ?? 0 };
    };
    const before = await scrape();
    // Scrapes on connections of their own alternate between the workers; each must see the same.
    expect(await scrape()).toEqual(before);
    for (let index = 0; index < 6; index += 1) expect((await chat('fast-model')).status).toBe(200);
    for (let index = 0; index < 4; index += 1)
      expect(await scrape()).toEqual({ requests: before.requests + 6, durations: before.durations + 6 });
  });

  test.skipIf(variant.changesOnly)(
    "a key's rpm limit holds for the machine, whichever worker serves the request",
    async () => {
      const limited = ((await admin('POST', '/keys', { user_id: userId, rpm: 4 })) as { key: string }).key;
      const statuses: number[] = [];
      for (let index = 0; index < 7; index += 1)
        statuses.push((await chat('fast-model', { as: limited })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429]);
    },
  );

  test.skipIf(variant.changesOnly)(
    'a worker killed with SIGKILL is replaced, and its holds are returned once',
    async () => {
      const before = await waitFor(books, isBalanced, { timeoutMs: 10_000, what: 'settled books' });
      const workers = childPids(gateway.child.pid!);
      const clients = new AbortController();
      const sent = stalled.requests.length;
      const inFlight = Array.from({ length: 8 }, (_, index) =>
        chat('stalled-model', { stream: index % 4 < 2, signal: clients.signal }),
      );
      await waitFor(
        () => stalled.requests.length - sent,
        (count) => count === 8,
        {
          timeoutMs: 10_000,
          what: 'requests in flight',
        },
      );
      const during = await books();
      expect(nano(during.balance)).toBeLessThan(nano(before.balance) - 8 * 1_000_000); // 8 pre-charges held

      process.kill(workers[0]!, 'SIGKILL');
      const replaced = await waitFor(
        () => childPids(gateway.child.pid!),
        (pids) => pids.length === 2 && !pids.includes(workers[0]!),
        { timeoutMs: 10_000, what: 'a replacement worker' },
      );
      expect(replaced).toContain(workers[1]);
      // The replacement returns the dead worker's holds as it starts; each leaves one record.
      const returned = await waitFor(
        books,
        (current) => current.logs.some((log) => log.error === 'interrupted'),
        { timeoutMs: 10_000, what: 'holds of the killed worker returned' },
      );
      const interrupted = returned.logs.filter((log) => log.error === 'interrupted');
      expect(interrupted.length).toBeGreaterThanOrEqual(1);
      expect(interrupted.length).toBeLessThan(8);
      for (const log of interrupted)
        expect(log).toMatchObject({ status_code: 0, cost: 0, model: 'stalled-model' });

      // The survivor's requests end when their clients go; then every request has its one record.
      clients.abort();
      await Promise.all(inFlight);
      const after = await balancedBooks(before.logs.length + 8);
      expect(after.logs.filter((log) => log.error === 'interrupted')).toHaveLength(interrupted.length);
      // Nothing more moves: the sibling's lease checks find nothing left to return.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await books()).toEqual(after);
      expect((await chat('fast-model')).status).toBe(200);
    },
  );

  test.skipIf(variant.changesOnly)(
    'SIGTERM drains both workers: requests in flight finish and every usage record is kept',
    async () => {
      const before = await waitFor(books, isBalanced, { timeoutMs: 10_000, what: 'settled books' });
      const sent = slow.requests.length;
      const inFlight = Array.from({ length: 6 }, (_, index) => chat('slow-model', { stream: index % 4 < 2 }));
      await waitFor(
        () => slow.requests.length - sent,
        (count) => count === 6,
        {
          timeoutMs: 10_000,
          what: 'requests in flight',
        },
      );
      gateway.child.kill('SIGTERM');
      const answers = await Promise.all(inFlight);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      for (const answer of answers) expect(answer.text).toContain('"finish_reason":"stop"');
      expect(await gateway.exited).toBe(0);
      expect(childPids(gateway.child.pid!)).toEqual([]);
      // What the workers left in the database before they exited: every record stored, no hold.
      const store = openStore({
        databaseUrl: environment.DATABASE_URL,
        dataDir: environment.GATEWAY_DATA_DIR ?? ':memory:',
        postgresSchema: environment.DATABASE_SCHEMA,
        checkpointWal: false,
      });
      const holds = await store.db.selectFrom('holds').select('id').execute();
      const stored = await store.db
        .selectFrom('usage_logs')
        .select('status_code')
        .where('model', '=', 'slow-model')
        .execute();
      await store.close();
      expect(holds).toEqual([]);
      expect(stored).toEqual(Array(6).fill({ status_code: 200 }));

      gateway = await startBuiltGateway({ ...environment, GATEWAY_WORKERS: '1' });
      // No wait here: the records were stored before the workers exited.
      const after = await books();
      expect(isBalanced(after)).toBe(true);
      const drained = after.logs.filter((log) => log.model === 'slow-model');
      expect(drained).toHaveLength(6);
      for (const log of drained) expect(log).toMatchObject({ status_code: 200, error: null });
      expect(after.logs).toHaveLength(before.logs.length + 6);
      expect(after.balance).toBeLessThan(before.balance);
    },
  );
});

test('the admin token generated on the first start is printed once, by the primary, and works on every worker', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-workers-token-'));
  try {
    const started = await startBuiltGateway({ GATEWAY_DATA_DIR: dataDir, GATEWAY_WORKERS: '2' });
    const tokenLines = started.lines.filter((line) => line.includes('admin token'));
    expect(tokenLines).toHaveLength(1);
    const token = /: (gw-admin-\S+)$/.exec(tokenLines[0] ?? '')?.[1];
    expect(token).toBeDefined();
    for (let index = 0; index < 4; index += 1) {
      const answer = await sendOnNewConnection(started.origin, { path: '/api/settings', token });
      expect(answer.status).toBe(200);
    }
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.lines.filter((line) => line.includes('admin token'))).toHaveLength(1);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
