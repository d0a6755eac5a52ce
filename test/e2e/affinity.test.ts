import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { ensureGatewayBuilt, startBuiltGateway, stopBuiltGateway } from '../helpers/built-gateway.js';
import { sendOnNewConnection } from '../helpers/cluster-gateway.js';
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';

/**
 * Prompt-cache affinity (admin-api section 11.4): requests of one key with one affinity key go to
 * one channel while it is healthy, in one process, across the workers of a machine and across
 * instances on Redis; when that channel fails the session moves once and stays where it moved.
 */
const KEY = 'sticky-upstream-key';
type Admin = (method: string, route: string, body?: unknown) => Promise<any>;

let fakes: FakeUpstream[];
beforeAll(async () => {
  fakes = await Promise.all([0, 1, 2].map(() => startFakeOpenAI({ apiKey: KEY })));
});
afterAll(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
});
beforeEach(() => {
  for (const fake of fakes) {
    fake.clear();
    fake.scriptAlways(undefined);
  }
});

/** Three equal channels of `gpt-4o`, one per fake; a user with a key. */
async function seed(admin: Admin): Promise<string> {
  for (const [index, fake] of fakes.entries()) {
    await admin('POST', '/channels', {
      name: `equal-${index}`,
      type: 'openai',
      base_url: fake.origin,
      keys: [KEY],
      models: ['gpt-4o'],
    });
  }
  await admin('PUT', '/prices/gpt-4o', { input: 1, output: 1 });
  const user = await admin('POST', '/users', { username: 'sticky', balance: 100 });
  return (await admin('POST', '/keys', { user_id: user.id })).key;
}

const served = () => fakes.map((fake) => fake.requests.length);
const chatBody = (promptCacheKey?: string) => ({
  model: 'gpt-4o',
  max_tokens: 8,
  messages: [{ role: 'user', content: 'hi' }],
  ...(promptCacheKey !== undefined && { prompt_cache_key: promptCacheKey }),
});

describe('in one process', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    key = await seed(async (method, route, body) => (await gw.admin(method, route, body)).body);
  });
  afterAll(async () => gw?.close());

  const chat = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const answer = await fetch(`${gw.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    await answer.text();
  };

  test('50 requests with one prompt_cache_key land on one of three equal channels', async () => {
    for (let index = 0; index < 50; index += 1) await chat(chatBody('conversation-1'));
    expect(served().sort((a, b) => a - b)).toEqual([0, 0, 50]);
  });

  test('without an affinity key the same requests spread over the channels', async () => {
    for (let index = 0; index < 30; index += 1) await chat(chatBody());
    expect(served().filter((count) => count > 0).length).toBeGreaterThan(1);
  });

  test("the x-session-affinity header and a messages client's metadata.user_id are affinity keys", async () => {
    for (let index = 0; index < 20; index += 1) await chat(chatBody(), { 'x-session-affinity': 'agent-7' });
    expect(served().filter((count) => count > 0)).toEqual([20]);
    for (const fake of fakes) fake.clear();
    const anthropic = new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 });
    for (let index = 0; index < 20; index += 1)
      await anthropic.messages.create({
        model: 'gpt-4o',
        max_tokens: 8,
        metadata: { user_id: 'user-42' },
        messages: [{ role: 'user', content: 'hi' }],
      });
    expect(served().filter((count) => count > 0)).toEqual([20]);
  });

  test('a sticky channel that fails moves the session once, and it stays on the new one', async () => {
    await chat(chatBody('conversation-2'));
    const first = served().findIndex((count) => count > 0);
    fakes[first]!.scriptAlways({ type: 'error', status: 500, message: 'down' });
    await chat(chatBody('conversation-2'));
    const moved = served().findIndex((count, index) => index !== first && count > 0);
    expect(moved).toBeGreaterThanOrEqual(0);
    fakes[first]!.scriptAlways(undefined);
    for (const fake of fakes) fake.clear();
    for (let index = 0; index < 20; index += 1) await chat(chatBody('conversation-2'));
    expect(served()[moved]).toBe(20);

    const scraped = await fetch(`${gw.origin}/metrics`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const metrics = parsePrometheusText(await scraped.text());
    const sticky = (result: string) => valueOf(metrics, 'gateway_sticky_routing_total', { result }) ?? 0;
    expect(sticky('moved')).toBe(1);
    expect(sticky('hit')).toBeGreaterThanOrEqual(49 + 19 + 19 + 20);
    expect(sticky('miss')).toBeGreaterThanOrEqual(4);
  });

  test('a virtual model with sticky false routes as usual', async () => {
    await gw.admin('POST', '/virtual-models', {
      name: 'loose',
      targets: [{ model: 'gpt-4o' }],
      sticky: false,
    });
    for (let index = 0; index < 30; index += 1) await chat({ ...chatBody('conversation-3'), model: 'loose' });
    expect(served().filter((count) => count > 0).length).toBeGreaterThan(1);
  });
});

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

describe.runIf(databaseUrl && redisUrl)('two instances on PostgreSQL and Redis', () => {
  const schema = uniqueSchemaName();
  let instances: TestGateway[] = [];
  let key: string;
  beforeAll(async () => {
    const shared = { databaseUrl, databaseSchema: schema, redisUrl };
    instances = [await startTestGateway(shared), await startTestGateway(shared)];
    key = await seed(async (method, route, body) => (await instances[0]!.admin(method, route, body)).body);
  });
  afterAll(async () => {
    await instances[1]?.close();
    const first = instances[0];
    if (first) {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(first.gateway.services.store.db);
      await first.close();
    }
  });

  const chatThrough = async (index: number, conversation: string) => {
    const answer = await fetch(`${instances[index % 2]!.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody(conversation)),
    });
    expect(answer.status).toBe(200);
    await answer.text();
  };

  test('50 requests alternating between the instances land on one channel', async () => {
    for (let index = 0; index < 50; index += 1) await chatThrough(index, 'shared-conversation');
    expect(served().sort((a, b) => a - b)).toEqual([0, 0, 50]);
  });

  test('a failing sticky channel moves the session once, for both instances', async () => {
    await chatThrough(0, 'shared-2');
    const first = served().findIndex((count) => count > 0);
    fakes[first]!.scriptAlways({ type: 'error', status: 500, message: 'down' });
    await chatThrough(1, 'shared-2');
    fakes[first]!.scriptAlways(undefined);
    const moved = served().findIndex((count, index) => index !== first && count > 0);
    for (const fake of fakes) fake.clear();
    for (let index = 0; index < 20; index += 1) await chatThrough(index, 'shared-2');
    expect(served()[moved]).toBe(20);
  });
});

describe('two workers of one machine', () => {
  const TOKEN = 'sticky-admin-token';
  let dataDir: string;
  let gateway: Awaited<ReturnType<typeof startBuiltGateway>> | undefined;
  let key: string;
  beforeAll(async () => {
    await ensureGatewayBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-sticky-'));
    gateway = await startBuiltGateway({
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_ADMIN_TOKEN: TOKEN,
      GATEWAY_WORKERS: '2',
    });
    const origin = gateway.origin;
    key = await seed(async (method, route, body) => {
      const answer = await sendOnNewConnection(origin, { method, path: `/api${route}`, token: TOKEN, body });
      if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${answer.text}`);
      return JSON.parse(answer.text);
    });
  }, 120_000);
  afterAll(async () => {
    if (gateway) await stopBuiltGateway(gateway);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('50 requests, each on a new connection (either worker), land on one channel', async () => {
    for (let index = 0; index < 50; index += 1) {
      const answer = await sendOnNewConnection(gateway!.origin, {
        path: '/v1/chat/completions',
        token: key,
        body: chatBody('worker-conversation'),
      });
      expect(answer.status).toBe(200);
    }
    expect(served().sort((a, b) => a - b)).toEqual([0, 0, 50]);
  });
});
