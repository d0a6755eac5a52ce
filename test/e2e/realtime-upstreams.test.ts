import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { rawSession, refusedUpgrade } from '../realtime/realtime-clients.js';
import { startRawUpstream } from '../realtime/raw-upstream.js';

/**
 * What the gateway asks of realtime upstreams and how it relays them (admin-api sections 5 and
 * 14): frames byte for byte both ways, close codes both ways, Azure's realtime URLs, and the next
 * channel when an upstream refuses the upgrade.
 */
const UPSTREAM_KEY = 'raw-upstream-key';
const PRICE = { input: 4, output: 16 };

let gw: TestGateway;
let raw: Awaited<ReturnType<typeof startRawUpstream>>;
let failing: FakeOpenAI;
let key: string;
let deadOrigin: string;

const channel = (fields: Record<string, unknown>) =>
  gw.admin('POST', '/channels', { keys: [UPSTREAM_KEY], endpoints: ['realtime'], ...fields });
const open = (model: string) =>
  rawSession(gw.origin, { query: `?model=${model}`, headers: { authorization: `Bearer ${key}` } });

beforeAll(async () => {
  raw = await startRawUpstream();
  failing = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  // A port nothing listens on.
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  deadOrigin = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  probe.close();
  gw = await startTestGateway();
  await channel({ name: 'raw', type: 'openai', base_url: raw.origin, models: ['raw-model'] });
  await channel({
    name: 'azure-dated',
    type: 'azure',
    base_url: `${raw.origin}/openai`,
    config: { api_version: '2025-04-01-preview' },
    models: ['azure-dated'],
    model_mapping: { 'azure-dated': 'my-realtime-deployment' },
  });
  await channel({
    name: 'azure-v1',
    type: 'azure',
    base_url: raw.origin,
    models: ['azure-v1'],
    model_mapping: { 'azure-v1': 'gpt-realtime-deployment' },
  });
  // `fallback-model`: its first channel refuses the upgrade, the second takes it.
  await channel({
    name: 'refusing',
    type: 'openai',
    base_url: failing.origin,
    models: ['fallback-model', 'refused-model'],
    priority: 10,
  });
  await channel({ name: 'taking', type: 'openai', base_url: raw.origin, models: ['fallback-model'] });
  await channel({ name: 'dead', type: 'openai', base_url: deadOrigin, models: ['dead-model'] });
  for (const model of [
    'raw-model',
    'azure-dated',
    'azure-v1',
    'fallback-model',
    'refused-model',
    'dead-model',
  ])
    await gw.admin('PUT', `/prices/${model}`, PRICE);
  const user = await gw.admin('POST', '/users', { username: 'frames', balance: 10 });
  key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
});
afterAll(async () => {
  await gw?.close();
  await raw?.close();
  await failing?.close();
});

describe('frames', () => {
  test('text stays text and binary stays binary, byte for byte, both ways', async () => {
    const client = open('raw-model');
    await client.next('session.created');
    const upstream = await raw.socket(raw.sockets.length - 1);
    const index = raw.sockets.indexOf(upstream);
    expect(upstream.query.get('model')).toBe('raw-model');
    expect(upstream.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);

    const oddlySpaced = '{ "type" :"input_audio_buffer.append" , "audio":"AAAA" }';
    client.socket.send('not json at all');
    client.socket.send(Buffer.from([0, 1, 2, 255]), { binary: true });
    client.socket.send(oddlySpaced);
    client.socket.send(Buffer.from('{"type":"response.cancel"}'), { binary: true });
    const received = await raw.frames(4, index);
    expect(received).toEqual([
      { data: Buffer.from('not json at all'), binary: false },
      { data: Buffer.from([0, 1, 2, 255]), binary: true },
      { data: Buffer.from(oddlySpaced), binary: false },
      { data: Buffer.from('{"type":"response.cancel"}'), binary: true },
    ]);

    upstream.socket.send(Buffer.from([9, 8, 7]), { binary: true });
    upstream.socket.send('plain words');
    upstream.socket.send('{"type":"response.output_audio.delta","delta":"AAEC"}');
    await client.frameCount(4);
    expect(client.frames.slice(1)).toEqual([
      Buffer.from([9, 8, 7]),
      'plain words',
      { type: 'response.output_audio.delta', delta: 'AAEC' },
    ]);

    // Close codes and reasons pass both ways: here the upstream's.
    upstream.socket.close(4321, 'the upstream had enough');
    expect(await client.closed).toEqual({ code: 4321, reason: 'the upstream had enough' });
  });

  test('a client that does not read holds the upstream back, rather than the gateway buffering its frames', async () => {
    const client = open('raw-model');
    await client.next('session.created');
    const upstream = raw.sockets.at(-1)!;
    client.socket.pause();
    const frame = (index: number) => Buffer.alloc(128 * 1024, index % 251);
    const count = 400;
    for (let index = 0; index < count; index += 1) upstream.socket.send(frame(index), { binary: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 50 MiB sent: what the sockets' kernel buffers and the gateway's 512 KiB do not hold waits at the upstream.
    expect(upstream.socket.bufferedAmount).toBeGreaterThan(16 * 1024 * 1024);
    client.socket.resume();
    await client.frameCount(count + 1);
    const received = client.frames.slice(1) as Buffer[];
    expect(received.every((bytes, index) => bytes.equals(frame(index)))).toBe(true);
    client.socket.close();
    await client.closed;
  });

  test("an upstream error event quoting the channel's key reaches the client without it", async () => {
    const client = open('raw-model');
    await client.next('session.created');
    const upstream = raw.sockets.at(-1)!;
    const quoting = {
      type: 'error',
      event_id: 'event_1',
      error: {
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        message: `Incorrect API key provided: ${UPSTREAM_KEY}.`,
      },
    };
    upstream.socket.send(JSON.stringify(quoting));
    expect(await client.next('error')).toEqual({
      ...quoting,
      error: { ...quoting.error, message: 'Incorrect API key provided: ***.' },
    });
    client.socket.close();
    await client.closed;
  });

  test("the client's close code and reason reach the upstream; 1005 stays no code", async () => {
    const first = open('raw-model');
    await first.next('session.created');
    const firstUpstream = raw.sockets.at(-1)!;
    first.socket.close(4002, 'client says bye');
    expect(await firstUpstream.closed).toEqual({ code: 4002, reason: 'client says bye' });

    const second = open('raw-model');
    await second.next('session.created');
    const secondUpstream = raw.sockets.at(-1)!;
    second.socket.close();
    expect(await secondUpstream.closed).toEqual({ code: 1005, reason: '' });
  });
});

describe('Azure', () => {
  test('a dated api_version: /openai/realtime with api-version and deployment, the key as api-key', async () => {
    const client = open('azure-dated');
    await client.next('session.created');
    const upstream = raw.sockets.at(-1)!;
    expect(upstream.path).toBe('/openai/realtime');
    expect(Object.fromEntries(upstream.query)).toEqual({
      'api-version': '2025-04-01-preview',
      deployment: 'my-realtime-deployment',
    });
    expect(upstream.headers['api-key']).toBe(UPSTREAM_KEY);
    expect(upstream.headers.authorization).toBeUndefined();
    client.socket.close();
    await client.closed;
  });

  test('the v1 API: /openai/v1/realtime with the deployment as model', async () => {
    const client = open('azure-v1');
    await client.next('session.created');
    const upstream = raw.sockets.at(-1)!;
    expect(upstream.url).toBe('/openai/v1/realtime?model=gpt-realtime-deployment');
    expect(upstream.headers['api-key']).toBe(UPSTREAM_KEY);
    client.socket.close();
    await client.closed;
  });
});

describe('choosing an upstream', () => {
  test('an upstream that refuses the upgrade is left for the next channel, before the client is answered', async () => {
    failing.script({ type: 'error', status: 503, message: 'overloaded' });
    const client = open('fallback-model');
    await client.next('session.created');
    expect(failing.requests.map((request) => request.path)).toEqual(['/v1/realtime']);
    expect(raw.sockets.at(-1)!.query.get('model')).toBe('fallback-model');
    client.socket.close();
    await client.closed;
  });

  test("when every upstream refuses, the client gets the last one's status and body, its key redacted", async () => {
    failing.clear();
    failing.script({ type: 'error', status: 400, message: `bad key ${UPSTREAM_KEY} for this model` });
    const refused = await refusedUpgrade(
      `${gw.origin.replace('http:', 'ws:')}/v1/realtime?model=refused-model`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.headers['x-gateway-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(refused.body.error.message).toBe('bad key *** for this model');
  });

  test('an upstream that cannot be reached: 502 upstream_error, as an HTTP relay answers', async () => {
    const refused = await refusedUpgrade(
      `${gw.origin.replace('http:', 'ws:')}/v1/realtime?model=dead-model`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('upstream_error');
    expect(refused.body.error.message).toMatch(/^upstream request failed: .*ECONNREFUSED/);
  });
});
