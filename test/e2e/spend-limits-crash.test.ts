import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

/**
 * Admin-api section 10, rule 2 (with section 3, rule 6) against the real process: a killed
 * process's reservations in budget windows are returned as its holds are. With requests settled
 * before and 30 in flight at SIGKILL, the window counts, after the restart, exactly what the
 * settled requests cost (the killed ones nothing), the balance agrees, and a key whose
 * concurrency cap was full at the kill has its slots back; a second kill returns what the
 * second life held, and nothing twice.
 */
const TOKEN = 'spend-crash-admin-token';
const UPSTREAM_KEY = 'spend-crash-upstream-key';
const START_BALANCE = 100;
const IN_FLIGHT = 30;
const CAP = 4;
const SETTLED_BEFORE = 6;
const nano = (usd: number) => Math.round(usd * 1e9);

const databaseUrl = process.env.DATABASE_URL;

interface Variant {
  name: string;
  environment(): Record<string, string>;
  cleanUp(environment: Record<string, string>): Promise<void>;
}

const variants: Variant[] = [
  {
    name: 'SQLite',
    environment: () => ({ GATEWAY_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gateway-spend-crash-')) }),
    cleanUp: async (environment) => rmSync(environment.GATEWAY_DATA_DIR!, { recursive: true, force: true }),
  },
];
if (databaseUrl)
  variants.push({
    name: 'PostgreSQL',
    environment: () => ({ DATABASE_URL: databaseUrl, DATABASE_SCHEMA: uniqueSchemaName() }),
    cleanUp: (environment) => dropSchema(databaseUrl, environment.DATABASE_SCHEMA!),
  });

let fast: FakeUpstream;
let stalled: FakeUpstream;

beforeAll(async () => {
  await ensureGatewayBuilt();
  const usage = {
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
  fast = await startFakeOpenAI({ apiKey: UPSTREAM_KEY, usage });
  stalled = await startFakeOpenAI({ apiKey: UPSTREAM_KEY, usage });
  // Streams get two chunks and then silence; JSON replies never come.
  stalled.scriptAlways({ type: 'stall', afterChunks: 2 });
}, 120_000);
afterAll(async () => {
  await fast?.close();
  await stalled?.close();
});

interface UsageLog {
  key_id: number;
  status_code: number;
  cost: number;
  prompt_tokens: number;
  completion_tokens: number;
  error: string | null;
}

interface Window {
  used_usd: number;
  used_tokens: number;
  used_requests: number;
}

describe.each(variants)('spend limits through a crash on $name', (variant) => {
  const environment = {
    ...variant.environment(),
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_LEASE_TTL_S: '2',
  };
  const started: BuiltGateway[] = [];
  let origin = '';
  const admin = (method: string, route: string, body?: unknown) =>
    adminCall(origin, TOKEN, method, route, body);
  afterAll(async () => {
    for (const gateway of started)
      if (gateway.child.exitCode === null && gateway.child.signalCode === null)
        await killBuiltGateway(gateway);
    await variant.cleanUp(environment);
  });

  async function start(): Promise<BuiltGateway> {
    const gateway = await startBuiltGateway(environment);
    started.push(gateway);
    origin = gateway.origin;
    return gateway;
  }

  const chat = (key: string, options: { model: string; stream: boolean; signal?: AbortSignal }) =>
    fetch(`${origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: options.model,
        stream: options.stream,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Tell me about budgets.' }],
      }),
      signal: options.signal,
    });

  /** Sends `count` requests the upstream holds (every other one streamed); waits until it has them all. */
  async function putInFlight(key: string, count: number, clients: AbortController) {
    const before = stalled.requests.length;
    const pending = Array.from({ length: count }, (_, index) =>
      chat(key, { model: 'stalled-model', stream: index % 2 === 0, signal: clients.signal })
        .then((response) => response.body?.getReader().read())
        .catch(() => undefined),
    );
    await waitFor(
      () => stalled.requests.length - before,
      (arrived) => arrived >= count,
      { timeoutMs: 20_000, what: `${count} requests at the upstream` },
    );
    expect(stalled.requests.length - before).toBe(count);
    return pending;
  }

  const windowOf = async (route: string): Promise<Window> => (await admin('GET', `${route}/budgets`)).data[0];

  /** What the usage records of `keyIds` add up to: the figures their windows must show. */
  function settledFigures(logs: UsageLog[], keyIds: number[]) {
    const served = logs.filter((log) => keyIds.includes(log.key_id) && log.status_code === 200);
    return {
      used_usd: served.reduce((sum, log) => sum + nano(log.cost), 0),
      used_tokens: served.reduce((sum, log) => sum + log.prompt_tokens + log.completion_tokens, 0),
      used_requests: served.length,
    };
  }

  /** A window's usage, USD in nano-USD. */
  const usageOf = (window: Window): Window => ({
    used_usd: nano(window.used_usd),
    used_tokens: window.used_tokens,
    used_requests: window.used_requests,
  });

  test('the windows count exactly the settled requests after a SIGKILL, and a full concurrency cap is free again', async () => {
    let gateway = await start();
    for (const model of ['fast-model', 'stalled-model']) {
      await admin('POST', '/channels', {
        name: model,
        type: 'openai',
        base_url: (model === 'fast-model' ? fast : stalled).origin,
        keys: [UPSTREAM_KEY],
        models: [model],
      });
      await admin('PUT', `/prices/${model}`, { input: 2, output: 8 });
    }
    const user = await admin('POST', '/users', {
      username: 'spender',
      balance: START_BALANCE,
      budgets: [{ period: 'hours', hours: 5, usd: 50, requests: 1_000 }],
    });
    const budgeted = await admin('POST', '/keys', {
      user_id: user.id,
      budgets: [{ period: 'day', usd: 10, tokens: 1_000_000, requests: 1_000 }],
    });
    const capped = await admin('POST', '/keys', { user_id: user.id, max_concurrency: CAP });

    for (let index = 0; index < SETTLED_BEFORE; index += 1) {
      const response = await chat(index % 3 === 2 ? capped.key : budgeted.key, {
        model: 'fast-model',
        stream: index % 2 === 1,
      });
      expect(response.status).toBe(200);
      await response.text();
    }
    const settledLogs = await waitFor(
      async (): Promise<UsageLog[]> => (await admin('GET', '/logs?limit=1000')).data,
      (logs) => logs.length === SETTLED_BEFORE,
      { timeoutMs: 10_000, what: 'the settled requests recorded' },
    );
    const keyFigures = settledFigures(settledLogs, [budgeted.id]);
    const userFigures = settledFigures(settledLogs, [budgeted.id, capped.id]);
    expect(keyFigures.used_requests).toBe(4);
    expect(keyFigures.used_usd).toBeGreaterThan(0);
    expect(usageOf(await windowOf(`/keys/${budgeted.id}`))).toEqual(keyFigures);

    const clients = new AbortController();
    const pending = [
      ...(await putInFlight(budgeted.key, IN_FLIGHT, clients)),
      ...(await putInFlight(capped.key, CAP, clients)),
    ];
    // Reservations in flight count as used; the cap is full.
    const during = usageOf(await windowOf(`/keys/${budgeted.id}`));
    expect(during.used_requests).toBe(keyFigures.used_requests + IN_FLIGHT);
    expect(during.used_usd).toBeGreaterThan(keyFigures.used_usd + IN_FLIGHT * 800_000);
    expect((await windowOf(`/users/${user.id}`)).used_requests).toBe(
      userFigures.used_requests + IN_FLIGHT + CAP,
    );
    const over = await chat(capped.key, { model: 'fast-model', stream: false });
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe(
      'concurrency_limit_exceeded',
    );

    await killBuiltGateway(gateway);
    clients.abort();
    await Promise.all(pending);
    gateway = await start();

    // The restarted process returns its previous life's holds (at once, or within the lease).
    const keyWindow = await waitFor(
      async () => usageOf(await windowOf(`/keys/${budgeted.id}`)),
      (window) => window.used_requests === keyFigures.used_requests,
      { timeoutMs: 15_000, what: 'the reservations of the killed process returned' },
    );
    expect(keyWindow).toEqual(keyFigures);
    expect(usageOf(await windowOf(`/users/${user.id}`))).toEqual(userFigures);
    const logs: UsageLog[] = (await admin('GET', '/logs?limit=1000')).data;
    const interrupted = logs.filter((log) => log.error === 'interrupted');
    expect(interrupted).toHaveLength(IN_FLIGHT + CAP);
    for (const log of interrupted) expect(log).toMatchObject({ status_code: 0, cost: 0 });
    const after = await admin('GET', `/users/${user.id}`);
    expect(nano(START_BALANCE) - nano(after.balance)).toBe(userFigures.used_usd);
    expect(nano(after.used)).toBe(userFigures.used_usd);

    // The capped key's slots came back with the holds: as many requests as the cap pass, then no more.
    const again = new AbortController();
    const refilled = await putInFlight(capped.key, CAP, again);
    const refused = await chat(capped.key, { model: 'fast-model', stream: false });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'concurrency_limit_exceeded',
    );

    // Killed again with those in flight: their reservations come back too, and nothing twice.
    await killBuiltGateway(gateway);
    again.abort();
    await Promise.all(refilled);
    gateway = await start();
    await waitFor(
      async () => usageOf(await windowOf(`/users/${user.id}`)),
      (window) => window.used_requests === userFigures.used_requests,
      { timeoutMs: 15_000, what: 'the reservations of the second killed process returned' },
    );
    expect(usageOf(await windowOf(`/users/${user.id}`))).toEqual(userFigures);
    expect(usageOf(await windowOf(`/keys/${budgeted.id}`))).toEqual(keyFigures);
    const finalLogs: UsageLog[] = (await admin('GET', '/logs?limit=1000')).data;
    expect(finalLogs.filter((log) => log.error === 'interrupted')).toHaveLength(IN_FLIGHT + 2 * CAP);
    expect(await admin('GET', `/users/${user.id}`)).toMatchObject({
      balance: after.balance,
      used: after.used,
    });
    const passes = await chat(capped.key, { model: 'fast-model', stream: false });
    expect(passes.status).toBe(200);
    await passes.text();
    expect(await stopBuiltGateway(gateway)).toBe(0);
  }, 60_000);
});
