import { afterAll, beforeAll, expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';
import { rawSession, refusedUpgrade } from './realtime-clients.js';

/**
 * Upgrades bypass the HTTP app's hooks, so the relay writes their access log lines itself: one per
 * upgrade, the refusal's status, or 101 with the session's outcome once it ended. Never the key.
 */
const UPSTREAM_KEY = 'access-log-upstream-key';
const lines: Record<string, unknown>[] = [];
let gateway: Gateway;
let origin: string;
let upstream: FakeOpenAI;

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  const logger = createLogger('info', 'json', {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  gateway = await createGateway(
    { ...readEnvironment({}), dataDir: ':memory:', adminToken: TEST_ADMIN_TOKEN, logLevel: 'info' },
    logger,
  );
  origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await gateway?.close(100);
  await upstream?.close();
});

const admin = (method: string, route: string, body: unknown) =>
  fetch(`${origin}/api${route}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((response) => response.json() as Promise<any>);

test('a refused upgrade and a session each leave one access line', async () => {
  await admin('POST', '/channels', {
    name: 'realtime',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-realtime'],
    endpoints: ['realtime'],
  });
  await admin('PUT', '/prices/gpt-realtime', { input: 4, output: 16 });
  const user = await admin('POST', '/users', { username: 'logged', balance: 10 });
  const { key } = await admin('POST', '/keys', { user_id: user.id });

  const refused = await refusedUpgrade(`${origin.replace('http:', 'ws:')}/v1/realtime?model=gpt-realtime`, {
    headers: { authorization: 'Bearer sk-nobody' },
  });
  const session = rawSession(origin, { headers: { authorization: `Bearer ${key}` } });
  await session.next('session.created');
  session.socket.close();
  await session.closed;

  const upgrades = () => lines.filter((line) => line.msg === 'request' && line.path === '/v1/realtime');
  await waitFor(upgrades, (found) => found.length === 2, { timeoutMs: 3_000, what: 'two access lines' });
  expect(upgrades()[0]).toMatchObject({
    requestId: refused.headers['x-gateway-request-id'],
    method: 'GET',
    status: 401,
  });
  expect(upgrades()[1]).toMatchObject({
    method: 'GET',
    status: 101,
    userId: user.id,
    endpoint: 'realtime',
    model: 'gpt-realtime',
    stream: true,
  });
  expect(JSON.stringify(lines)).not.toContain(key);
});
