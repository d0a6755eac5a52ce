import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import {
  adminCall,
  ensureGatewayBuilt,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from '../helpers/built-gateway.js';
import { refusedUpgrade, sdkSession } from '../realtime/realtime-clients.js';

/**
 * `GATEWAY_WORKERS=2`: every worker takes realtime upgrades on the shared port, and a key's
 * `max_concurrency` counts its sessions on both, since their slots are holds in the one database.
 * Each new connection goes to the next worker, so consecutive sessions land on both.
 */
const TOKEN = 'realtime-workers-admin-token';
const UPSTREAM_KEY = 'realtime-workers-upstream-key';

let upstream: FakeOpenAI;
let gateway: BuiltGateway;
let dataDir: string;

beforeAll(async () => {
  await ensureGatewayBuilt();
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-realtime-workers-'));
  gateway = await startBuiltGateway({
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_WORKERS: '2',
  });
}, 120_000);
afterAll(async () => {
  if (gateway) await stopBuiltGateway(gateway);
  await upstream?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('sessions open on both workers, and max_concurrency counts them together', async () => {
  const call = (method: string, route: string, body?: unknown) =>
    adminCall(gateway.origin, TOKEN, method, route, body);
  await call('POST', '/channels', {
    name: 'realtime',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-realtime'],
    endpoints: ['realtime'],
  });
  await call('PUT', '/prices/gpt-realtime', { input: 4, output: 16 });
  const user = await call('POST', '/users', { username: 'workers', balance: 10 });
  const { key } = await call('POST', '/keys', { user_id: user.id, max_concurrency: 2 });
  const client = new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1` });

  const first = sdkSession(client, 'gpt-realtime');
  const second = sdkSession(client, 'gpt-realtime');
  await Promise.all([first.event('session.created'), second.event('session.created')]);
  const ids = await Promise.all(
    [first, second].map(
      async (session) => (await session.upgraded).headers['x-gateway-request-id'] as string,
    ),
  );
  // A request id starts with its process's own prefix: two workers served them.
  expect(new Set(ids.map((id) => id.slice(0, 16))).size).toBe(2);

  for (let attempt = 0; attempt < 2; attempt += 1) {
    const refused = await refusedUpgrade(
      `${gateway.origin.replace('http:', 'ws:')}/v1/realtime?model=gpt-realtime`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('concurrency_limit_exceeded');
  }

  for (const session of [first, second]) {
    session.realtime.send({ type: 'response.create' });
    await session.event('response.done');
  }
  first.realtime.close();
  await first.closed;
  let third: ReturnType<typeof sdkSession> | undefined;
  for (let waited = 0; !third; waited += 100) {
    const attempt = sdkSession(client, 'gpt-realtime');
    const opened = await Promise.race([
      attempt.event('session.created').then(() => true),
      attempt.closed.then(() => false),
    ]);
    if (opened) third = attempt;
    else if (waited > 5_000) throw new Error('the closed session did not free its slot');
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  second.realtime.close();
  third.realtime.close();
  await Promise.all([second.closed, third.closed]);
}, 60_000);
