import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readEnvironment, type Environment } from '../../src/config/environment.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';
import { rawSession, sdkSession } from '../realtime/realtime-clients.js';

/**
 * How realtime sessions end besides their clients' and upstreams' own closes: the gateway's
 * shutdown closes them (1001) and leaves no money held, and a client that stops answering pings is
 * taken for gone.
 */
const UPSTREAM_KEY = 'lifecycle-upstream-key';
const nano = (usd: number) => Math.round(usd * 1e9);
const dirs: string[] = [];
let upstream: FakeOpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
});
afterAll(async () => {
  await upstream.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A gateway on its own SQLite file, so a second one can read what the first left. */
async function startGateway(dataDir: string, options: { realtimeHeartbeatMs?: number } = {}) {
  const environment: Environment = {
    ...readEnvironment({}),
    dataDir,
    adminToken: TEST_ADMIN_TOKEN,
    logLevel: 'silent',
    ...options,
  };
  const gateway = await createGateway(environment, createLogger('silent'), options);
  const origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${origin}/api${route}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  return { gateway, origin, admin };
}

async function seed(admin: (method: string, route: string, body?: unknown) => Promise<any>) {
  await admin('POST', '/channels', {
    name: 'realtime',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-realtime'],
    endpoints: ['realtime'],
  });
  await admin('PUT', '/prices/gpt-realtime', { input: 4, output: 16 });
  const user = await admin('POST', '/users', { username: 'lifecycle', balance: 10 });
  const key = await admin('POST', '/keys', { user_id: user.id });
  return { userId: user.id as number, key: key.key as string };
}

function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-realtime-'));
  dirs.push(dir);
  return dir;
}

test('shutdown closes every session with 1001; a response still running is charged on its usage, nothing stays held', async () => {
  const dataDir = newDataDir();
  const first = await startGateway(dataDir);
  const { userId, key } = await seed(first.admin);
  const client = new OpenAI({ apiKey: key, baseURL: `${first.origin}/v1` });

  const idle = sdkSession(client, 'gpt-realtime');
  await idle.event('session.created');
  const busy = sdkSession(client, 'gpt-realtime');
  await busy.event('session.created');
  upstream.realtime.script({ hold: true, usage: { inputTokens: 100, outputTokens: 30 } });
  busy.realtime.send({ type: 'response.create' });
  await busy.event('response.output_item.done');
  expect(first.gateway.realtime.openSessions).toBe(2);

  const closing = (first.gateway as Gateway).close(300);
  // The idle session goes at once; the busy one when the grace period is over.
  expect(await idle.closed).toEqual({ code: 1001, reason: 'the gateway is shutting down' });
  expect(await busy.closed).toEqual({ code: 1001, reason: 'the gateway is shutting down' });
  await closing;

  const second = await startGateway(dataDir);
  try {
    const logs = (await second.admin('GET', '/logs?limit=100')).data as any[];
    expect(logs.map((log) => log.error).filter(Boolean)).toEqual([]);
    const charged = logs.filter((log) => log.cost > 0);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ prompt_tokens: 100, completion_tokens: 30, status_code: 200 });
    const cost = Math.round((100 * nano(4) + 30 * nano(16)) / 1e6);
    expect(nano(charged[0].cost)).toBe(cost);
    expect(logs).toHaveLength(3);
    const user = await second.admin('GET', `/users/${userId}`);
    // No hold left: what is not charged is back in the balance.
    expect(nano(user.balance)).toBe(nano(10) - cost);
    expect(nano(user.used)).toBe(cost);
  } finally {
    await second.gateway.close(100);
  }
});

test('a client that stops answering pings is taken for gone; one that answers stays', async () => {
  const dataDir = newDataDir();
  const started = await startGateway(dataDir, { realtimeHeartbeatMs: 100 });
  try {
    const { key } = await seed(started.admin);
    const headers = { authorization: `Bearer ${key}` };
    const alive = rawSession(started.origin, { headers });
    await alive.next('session.created');
    const silent = rawSession(started.origin, { headers, autoPong: false });
    await silent.next('session.created');
    const silentUpstream = upstream.realtime.connections.at(-1)!;
    expect((await silent.closed).code).toBe(1006);
    expect(await silentUpstream.closed).toEqual({
      code: 1011,
      reason: 'the other side of the relay went away without a close frame',
    });
    await waitFor(
      () => started.gateway.realtime.openSessions,
      (open) => open === 1,
      { timeoutMs: 2_000, what: 'the silent session ended' },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(alive.socket.readyState).toBe(alive.socket.OPEN);
    alive.socket.close();
    await alive.closed;
  } finally {
    await started.gateway.close(100);
  }
});
