import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * `POST /api/channels/{id}/test` of a channel that serves only realtime: the upstream's WebSocket
 * is opened and its first event read; a session that opens with anything but `session.created`
 * fails the test, and nothing is ever asked of the model.
 */
const UPSTREAM_KEY = 'realtime-probe-key';

let gw: TestGateway;
let upstream: FakeOpenAI;

const channelTest = async (fields: Record<string, unknown>) => {
  const created = await gw.admin('POST', '/channels', {
    type: 'openai',
    models: ['gpt-realtime'],
    endpoints: ['realtime'],
    ...fields,
  });
  return (await gw.admin('POST', `/channels/${created.body.id}/test`)).body;
};

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

test('a working channel: the session opens with session.created, and nothing is asked of it', async () => {
  const result = await channelTest({ name: 'works', base_url: upstream.origin, keys: [UPSTREAM_KEY] });
  expect(result).toMatchObject({ ok: true, error: null });
  const connection = await upstream.realtime.connection(0);
  expect(connection.events).toEqual([]);
  await connection.closed;
});

test('a wrong key: upgraded, then refused by an error event, which the test reports', async () => {
  const result = await channelTest({ name: 'wrong-key', base_url: upstream.origin, keys: ['sk-wrong'] });
  expect(result.ok).toBe(false);
  expect(result.error).toContain('Incorrect API key');
  expect(result.error).not.toContain('sk-wrong');
});

test('an upgrade refused with an HTTP status, and an upstream nothing listens on', async () => {
  upstream.script({ type: 'error', status: 401 });
  const refused = await channelTest({ name: 'refused', base_url: upstream.origin, keys: [UPSTREAM_KEY] });
  expect(refused.ok).toBe(false);
  expect(refused.error).toMatch(/^HTTP 401/);

  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const deadOrigin = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  probe.close();
  const dead = await channelTest({ name: 'dead', base_url: deadOrigin, keys: [UPSTREAM_KEY] });
  expect(dead.ok).toBe(false);
  expect(dead.error).toBeTruthy();
});
