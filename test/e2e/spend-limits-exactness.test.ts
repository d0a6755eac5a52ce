import http, { type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import {
  adminCall,
  ensureGatewayBuilt,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { childPids, waitFor } from '../helpers/cluster-gateway.js';
import { startHeldUpstream, type HeldUpstream } from '../helpers/held-upstream.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * Admin-api section 10, rule 2 under load: concurrent requests, across workers and instances, can
 * never together pass a window's limit, nor a concurrency cap. 200 requests arrive at once at a
 * key whose budget fits exactly 37 of them; the upstream holds the ones let through until every
 * request was decided (so no settlement frees room during the burst), and then exactly 37 were
 * served, the other 163 refused with `budget_exceeded`, and the window and the balance show 37
 * settled requests. Where two servers share the limits, a concurrency cap lets no more requests
 * reach the upstream at once than it allows, whichever server they arrive at, and its slots come
 * back when they end. On one process (SQLite, PostgreSQL), two workers of one process (SQLite,
 * PostgreSQL) and two instances on one PostgreSQL with Redis.
 */
const UPSTREAM_KEY = 'exactness-upstream-key';
const MODEL = 'load-model';
const START_BALANCE = 100;
const BURST = 200;
const FITS = 37;
/** What the fake upstream reports for every reply, and the price: each settled request costs 60 µUSD. */
const USAGE = { inputTokens: 10, outputTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
const PRICE = { input: 2, output: 8 };
const COST_NANO = 10 * 2_000 + 5 * 8_000;
const TOKENS = 15;
const nano = (usd: number) => Math.round(usd * 1e9);

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/** The gateway under test, however many processes it is. */
interface Deployment {
  /** Every port that serves: one per instance. */
  origins: string[];
  /** Where the client's `index`-th request goes: instances take turns; workers share one port. */
  originFor(index: number): string;
  /** A management call; the parsed reply (fails on an error status). */
  admin(method: string, route: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

interface Variant {
  name: string;
  /** Two servers share the limits: the concurrency cap is tested across them. */
  servers: 1 | 2;
  start(): Promise<Deployment>;
}

const inProcess = (gateways: TestGateway[], cleanUp: () => Promise<void>): Deployment => ({
  origins: gateways.map((gateway) => gateway.origin),
  originFor: (index) => gateways[index % gateways.length]!.origin,
  admin: (method, route, body) => adminCall(gateways[0]!.origin, TEST_ADMIN_TOKEN, method, route, body),
  async close() {
    for (const gateway of gateways) await gateway.close();
    await cleanUp();
  },
});

const TOKEN = 'exactness-admin-token';

/** `GATEWAY_WORKERS=2`: each request goes on a connection of its own, which the primary hands to the workers in turn. */
async function twoWorkers(environment: Record<string, string>, cleanUp: () => Promise<void>) {
  const gateway: BuiltGateway = await startBuiltGateway({
    ...environment,
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_WORKERS: '2',
  });
  expect(childPids(gateway.child.pid!)).toHaveLength(2);
  return {
    origins: [gateway.origin],
    originFor: () => gateway.origin,
    admin: (method: string, route: string, body?: unknown) =>
      adminCall(gateway.origin, TOKEN, method, route, body),
    async close() {
      expect(await stopBuiltGateway(gateway)).toBe(0);
      await cleanUp();
    },
  } satisfies Deployment;
}

const variants: Variant[] = [
  {
    name: 'one process on SQLite',
    servers: 1,
    start: async () => inProcess([await startTestGateway()], async () => undefined),
  },
  {
    name: 'two workers on SQLite',
    servers: 2,
    async start() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-exactness-'));
      return twoWorkers({ GATEWAY_DATA_DIR: dataDir }, async () =>
        rmSync(dataDir, { recursive: true, force: true }),
      );
    },
  },
];
if (databaseUrl) {
  variants.push(
    {
      name: 'one process on PostgreSQL',
      servers: 1,
      async start() {
        const schema = uniqueSchemaName();
        const gateway = await startTestGateway({ databaseUrl, databaseSchema: schema });
        return inProcess([gateway], () => dropSchema(databaseUrl, schema));
      },
    },
    {
      name: 'two workers on PostgreSQL',
      servers: 2,
      async start() {
        const schema = uniqueSchemaName();
        return twoWorkers({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema }, () =>
          dropSchema(databaseUrl, schema),
        );
      },
    },
  );
  if (redisUrl)
    variants.push({
      name: 'two instances on one PostgreSQL, with Redis',
      servers: 2,
      async start() {
        const schema = uniqueSchemaName();
        const shared = { databaseUrl, databaseSchema: schema, redisUrl };
        const first = await startTestGateway(shared);
        const second = await startTestGateway(shared);
        return inProcess([first, second], () => dropSchema(databaseUrl, schema));
      },
    });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A chat completion on a connection of its own (so that requests spread over the workers). */
function chat(origin: string, key: string): Promise<Answer> {
  const body = JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}/v1/chat/completions`,
      {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed(text) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The reply's JSON; its text when it is not JSON (the tally then shows it). */
function parsed(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How many answers of each status (and error code): `{ '200': 37, '429 budget_exceeded': 163 }`. */
function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const kind = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error?.code}`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

let fake: FakeUpstream;
let held: HeldUpstream;

beforeAll(async () => {
  await ensureGatewayBuilt();
  fake = await startFakeOpenAI({ apiKey: UPSTREAM_KEY, usage: USAGE });
  held = await startHeldUpstream(fake.origin);
}, 120_000);
afterAll(async () => {
  await held?.close();
  await fake?.close();
});

describe.each(variants)('spend limits exact under load: $name', (variant) => {
  let deployment: Deployment;
  let sequence = 0;

  beforeAll(async () => {
    deployment = await variant.start();
    await deployment.admin('POST', '/channels', {
      name: 'held',
      type: 'openai',
      base_url: held.origin,
      keys: [UPSTREAM_KEY],
      models: [MODEL],
    });
    await deployment.admin('PUT', `/prices/${MODEL}`, PRICE);
    // A second instance learns of the channel and its price through Redis, moments later.
    const { key } = await createCustomer({});
    for (const origin of deployment.origins)
      await waitFor(
        async () => {
          const response = await fetch(`${origin}/v1/models`, {
            headers: { authorization: `Bearer ${key}` },
          });
          return response.ok && (await response.text()).includes(`"${MODEL}"`);
        },
        (listed) => listed,
        { timeoutMs: 10_000, what: `${MODEL} served at ${origin}` },
      );
  }, 30_000);
  afterAll(async () => {
    await deployment?.close();
  });

  /** A user of its own with one key carrying `key`'s members. */
  async function createCustomer(key: object) {
    sequence += 1;
    const user = await deployment.admin('POST', '/users', {
      username: `load${sequence}`,
      balance: START_BALANCE,
    });
    const created = await deployment.admin('POST', '/keys', { user_id: user.id, ...key });
    return { userId: user.id as number, keyId: created.id as number, key: created.key as string };
  }

  /**
   * `count` requests at once, the upstream holding those let through until every request was
   * decided (let through or refused); `whileHeld` runs then. Returns the answers, and how many
   * requests reached the upstream and were there at once.
   */
  async function burst(key: string, count: number, whileHeld?: () => Promise<void>) {
    held.reset();
    let refused = 0;
    const answers = Array.from({ length: count }, (_, index) =>
      chat(deployment.originFor(index), key).then((answer) => {
        refused += 1; // only refusals answer while the upstream holds
        return answer;
      }),
    );
    let reachedUpstream: number;
    try {
      await waitFor(
        () => refused + held.arrived,
        (decided) => decided >= count,
        { timeoutMs: 30_000, what: `all ${count} requests let through or refused` },
      );
      reachedUpstream = held.arrived;
      await whileHeld?.();
    } finally {
      held.open();
    }
    const answered = await Promise.all(answers);
    await held.drained();
    return { answers: answered, reachedUpstream, mostInFlight: held.mostInFlight };
  }

  const windowOf = async (keyId: number) => (await deployment.admin('GET', `/keys/${keyId}/budgets`)).data[0];

  /** The key's window once every reservation settled: its usage no longer counts any pre-charge. */
  const settledWindow = (keyId: number, usedUsdNano: number) =>
    waitFor(
      () => windowOf(keyId),
      (window) => nano(window.used_usd) === usedUsdNano,
      { timeoutMs: 10_000, what: 'the window settled' },
    );

  /** Balance, used, and the usage records: exactly `served` requests, charged once each. */
  async function expectCharged(customer: { userId: number; keyId: number }, served: number) {
    // A record is readable once its request settled, in the same move as the money.
    const logs = await waitFor(
      async () => (await deployment.admin('GET', `/logs?key_id=${customer.keyId}&limit=1000`)).data,
      (records: any[]) => records.filter((log) => log.status_code === 200).length >= served,
      { timeoutMs: 10_000, what: `${served} usage records` },
    );
    const charged = logs.filter((log: any) => log.cost > 0);
    expect(charged).toHaveLength(served);
    for (const log of charged)
      expect(log).toMatchObject({ status_code: 200, prompt_tokens: 10, completion_tokens: 5 });
    const user = await deployment.admin('GET', `/users/${customer.userId}`);
    expect(nano(START_BALANCE) - nano(user.balance)).toBe(served * COST_NANO);
    expect(nano(user.used)).toBe(served * COST_NANO);
  }

  function expectSplit(answers: Answer[], refusal: { code: string; message: RegExp }) {
    expect(tally(answers)).toEqual({ '200': FITS, [`429 ${refusal.code}`]: BURST - FITS });
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.body.error.message).toMatch(refusal.message);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
  }

  test(`a daily budget of ${FITS} requests serves exactly ${FITS} of ${BURST} concurrent requests`, async () => {
    const customer = await createCustomer({ budgets: [{ period: 'day', requests: FITS }] });
    const { answers, reachedUpstream } = await burst(customer.key, BURST, async () => {
      // Reservations in flight count as used.
      expect(await windowOf(customer.keyId)).toMatchObject({ used_requests: FITS });
    });
    expect(reachedUpstream).toBe(FITS);
    expectSplit(answers, {
      code: 'budget_exceeded',
      message: /^key budget exceeded: day limit 37 requests reached, resets at \d{4}-\d\d-\d\dT00:00:00Z/,
    });
    const window = await settledWindow(customer.keyId, FITS * COST_NANO);
    expect(window).toMatchObject({ requests: FITS, used_requests: FITS, used_tokens: FITS * TOKENS });
    await expectCharged(customer, FITS);
  });

  test(`a daily usd budget that fits ${FITS} pre-charges and not ${FITS + 1} serves exactly ${FITS}`, async () => {
    // The pre-charge, as a window counts it while the request runs.
    const probe = await createCustomer({ budgets: [{ period: 'day', usd: 1_000 }] });
    let preCharge = 0;
    const single = await burst(probe.key, 1, async () => {
      preCharge = nano((await windowOf(probe.keyId)).used_usd);
    });
    expect(single.answers[0]!.status).toBe(200);
    expect(preCharge).toBeGreaterThan(COST_NANO);
    await settledWindow(probe.keyId, COST_NANO);

    // One nano-dollar over 37 pre-charges: the 38th does not fit, even counted with the tokenizer.
    const limitNano = FITS * preCharge + 1;
    const customer = await createCustomer({ budgets: [{ period: 'day', usd: limitNano / 1e9 }] });
    const { answers, reachedUpstream } = await burst(customer.key, BURST, async () => {
      const window = await windowOf(customer.keyId);
      expect(nano(window.used_usd)).toBe(FITS * preCharge);
      expect(window.used_requests).toBe(FITS);
    });
    expect(reachedUpstream).toBe(FITS);
    const limit = `\\$${(limitNano / 1e9).toFixed(6).replace('.', '\\.')}`;
    expectSplit(answers, {
      code: 'budget_exceeded',
      message: new RegExp(`^key budget exceeded: day limit ${limit} reached, resets at `),
    });
    // Settlement replaced each pre-charge by the real cost.
    const window = await settledWindow(customer.keyId, FITS * COST_NANO);
    expect(window).toMatchObject({ used_requests: FITS, used_tokens: FITS * TOKENS });
    await expectCharged(customer, FITS);
  });

  test.runIf(variant.servers === 2)(
    'a concurrency cap of 4 holds across both servers, and its slots are free again once the requests end',
    async () => {
      const customer = await createCustomer({ max_concurrency: 4 });
      const first = await burst(customer.key, 24);
      expect(first.reachedUpstream).toBe(4);
      expect(first.mostInFlight).toBe(4);
      expect(tally(first.answers)).toEqual({ '200': 4, '429 concurrency_limit_exceeded': 20 });
      for (const answer of first.answers.filter((answer) => answer.status !== 200)) {
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.body.error).toMatchObject({
          code: 'concurrency_limit_exceeded',
          message: expect.stringMatching(/^too many concurrent requests \(limit 4\)/),
        });
      }
      await expectCharged(customer, 4);

      // Every slot came back when its request settled: another four fit at once, and no more.
      const second = await burst(customer.key, 6);
      expect(second.reachedUpstream).toBe(4);
      expect(second.mostInFlight).toBe(4);
      expect(tally(second.answers)).toEqual({ '200': 4, '429 concurrency_limit_exceeded': 2 });
    },
  );
});
