import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { adminCall, ensureGatewayBuilt } from '../helpers/built-gateway.js';
import { rawSession } from './realtime-clients.js';

/**
 * Issue 46: 500 idle realtime sessions cost the gateway at most 64 KiB each. The gateway runs in a
 * process of its own (the clients and the fake upstream would blur the figure); its memory after a
 * full collection is read before and after 500 sessions opened through it, each idle once its
 * `session.created` arrived.
 */
const TOKEN = 'memory-probe-admin-token';
const UPSTREAM_KEY = 'memory-upstream-key';
const SESSIONS = 500;
const BUDGET_BYTES = 64 * 1024;

let probe: ChildProcess;
let origin: string;
let upstream: FakeOpenAI;

beforeAll(async () => {
  await ensureGatewayBuilt();
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  probe = fork(path.join(import.meta.dirname, 'memory-probe-gateway.mjs'), {
    execArgv: ['--expose-gc'],
    env: { PATH: process.env.PATH ?? '', PROBE_ADMIN_TOKEN: TOKEN },
  });
  const [ready] = (await once(probe, 'message')) as [{ origin: string }];
  origin = ready.origin;
}, 120_000);
afterAll(async () => {
  probe?.send('stop');
  if (probe) await once(probe, 'exit');
  await upstream?.close();
});

const measure = async () => {
  probe.send('measure');
  const [answer] = (await once(probe, 'message')) as [{ memory: NodeJS.MemoryUsage; sessions: number }];
  return answer;
};

async function openSessions(key: string, count: number) {
  const sessions: ReturnType<typeof rawSession>[] = [];
  for (let batch = 0; batch < count; batch += 50) {
    const opened = Array.from({ length: Math.min(50, count - batch) }, () =>
      rawSession(origin, { headers: { authorization: `Bearer ${key}` } }),
    );
    await Promise.all(opened.map((session) => session.next('session.created')));
    sessions.push(...opened);
  }
  return sessions;
}

async function closeSessions(sessions: ReturnType<typeof rawSession>[]) {
  for (const session of sessions) session.socket.close();
  await Promise.all(sessions.map((session) => session.closed));
}

test(`${SESSIONS} idle sessions cost at most 64 KiB each`, async () => {
  const call = (method: string, route: string, body?: unknown) =>
    adminCall(origin, TOKEN, method, route, body);
  await call('POST', '/channels', {
    name: 'realtime',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-realtime'],
    endpoints: ['realtime'],
  });
  await call('PUT', '/prices/gpt-realtime', { input: 4, output: 16 });
  const user = await call('POST', '/users', { username: 'memory', balance: 100 });
  const { key } = await call('POST', '/keys', { user_id: user.id });

  // Warm up: code compiled, pools and caches filled, as on a gateway that has been serving.
  await closeSessions(await openSessions(key, 100));
  const before = await measure();
  expect(before.sessions).toBe(0);

  const sessions = await openSessions(key, SESSIONS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await measure();
  expect(after.sessions).toBe(SESSIONS);

  const perSession = (field: keyof NodeJS.MemoryUsage) =>
    Math.round((after.memory[field] - before.memory[field]) / SESSIONS);
  const figures = {
    rss: perSession('rss'),
    heapUsed: perSession('heapUsed'),
    external: perSession('external'),
    arrayBuffers: perSession('arrayBuffers'),
  };
  console.log(`memory per idle realtime session (bytes): ${JSON.stringify(figures)}`);
  expect(figures.rss).toBeLessThanOrEqual(BUDGET_BYTES);
  expect(figures.heapUsed + figures.external).toBeLessThanOrEqual(BUDGET_BYTES);

  await closeSessions(sessions);
}, 120_000);
