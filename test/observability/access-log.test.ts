import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import { formatLogLine } from '../../src/observability/pretty-log-stream.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';

const UPSTREAM_KEY = 'sk-upstream-never-logged';
const PROMPT = 'a prompt that must never reach the log';

let upstream: FakeUpstream;
let gateway: Gateway;
let origin: string;
let key: string;
let channelId: number;
const lines: string[] = [];

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  const logger = createLogger('info', 'json', { write: (line: string) => void lines.push(line) });
  gateway = await createGateway(
    { ...readEnvironment({}), dataDir: ':memory:', adminToken: TEST_ADMIN_TOKEN, port: 0 },
    logger,
  );
  origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = async (path: string, body: unknown, method = 'POST') => {
    const response = await fetch(`${origin}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { id: number; key: string };
  };
  channelId = (
    await admin('/channels', {
      name: 'openai',
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: ['gpt-4o'],
    })
  ).id;
  await admin('/prices/gpt-4o', { input: 2.5, output: 10, cached_input: 1.25 }, 'PUT');
  const user = await admin('/users', { username: 'logged', balance: 10 });
  key = (await admin('/keys', { user_id: user.id })).key;
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});
beforeEach(() => {
  lines.length = 0;
});

interface AccessLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** The access lines written so far (after the connection's close event ran). */
async function accessLines(): Promise<AccessLine[]> {
  await gateway.services.tracker.settled();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return lines.map((line) => JSON.parse(line) as AccessLine).filter((line) => line.msg === 'request');
}

const chat = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  fetch(`${origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: PROMPT }], ...body }),
  });

test('a relayed request: one info line with who, what, how it ended, tokens, cost and times', async () => {
  const response = await chat({});
  expect(response.status).toBe(200);
  await response.text();
  const [line, ...others] = await accessLines();
  expect(others).toEqual([]);
  await gateway.services.ledger.storeRecords();
  const logs = await gateway.services.repositories.usageLogs.list({ limit: 1, offset: 0 });
  const [record] = logs;
  expect(line).toMatchObject({
    level: 30,
    msg: 'request',
    requestId: response.headers.get('x-gateway-request-id'),
    method: 'POST',
    path: '/v1/chat/completions',
    status: 200,
    ip: '127.0.0.1',
    endpoint: 'chat-completions',
    model: 'gpt-4o',
    channelId,
    stream: false,
    tokens: {
      input: record?.promptTokens,
      cached: record?.cachedTokens,
      cacheWrite: record?.cacheWriteTokens,
      output: record?.completionTokens,
      reasoning: record?.reasoningTokens,
    },
    costUsd: (record?.cost ?? Number.NaN) / 1e9,
    firstByteMs: expect.any(Number),
    latencyMs: expect.any(Number),
    userId: expect.any(Number),
    keyId: expect.any(Number),
  });
  expect(line?.aborted).toBeUndefined();
  expect(Object.keys(line?.tokens as object)).toEqual([
    'input',
    'cached',
    'cacheWrite',
    'output',
    'reasoning',
  ]);
  // No secret, no header, no body.
  const raw = lines.join('\n');
  for (const secret of [
    key,
    UPSTREAM_KEY,
    TEST_ADMIN_TOKEN,
    PROMPT,
    'Hello from fake OpenAI',
    'authorization',
  ])
    expect(raw).not.toContain(secret);
  expect(Object.keys(line ?? {}).sort()).toEqual(
    [
      'channelId',
      'costUsd',
      'endpoint',
      'firstByteMs',
      'ip',
      'keyId',
      'latencyMs',
      'level',
      'method',
      'model',
      'msg',
      'path',
      'requestId',
      'status',
      'stream',
      'time',
      'tokens',
      'userId',
    ].sort(),
  );
});

test('a stream is logged once it ended; a client gone mid-stream is marked aborted', async () => {
  const response = await chat({ stream: true });
  await response.text();
  const [whole] = await accessLines();
  expect(whole).toMatchObject({ status: 200, stream: true, model: 'gpt-4o' });
  expect((whole?.tokens as { output: number }).output).toBeGreaterThan(0);

  lines.length = 0;
  upstream.script({ type: 'reply', chunkDelayMs: 200 });
  const cut = await chat({ stream: true });
  const reader = cut.body?.getReader();
  await reader?.read();
  await reader?.cancel();
  let aborted: AccessLine | undefined;
  for (let waited = 0; !aborted && waited < 3_000; waited += 50) {
    aborted = (await accessLines()).find((line) => line.aborted === true);
  }
  expect(aborted).toMatchObject({ status: 200, stream: true, aborted: true, path: '/v1/chat/completions' });
});

test('refused requests are logged too, without the query string that may hold a key', async () => {
  const refused = await fetch(`${origin}/v1beta/models/gpt-4o:generateContent?key=${key}x&alt=sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  });
  expect(refused.status).toBe(401);
  const missing = await fetch(`${origin}/v1/chat/completions`, { method: 'POST', body: '{}' });
  expect(missing.status).toBe(401);
  const [gemini, openai] = await accessLines();
  expect(gemini).toMatchObject({
    method: 'POST',
    path: '/v1beta/models/gpt-4o:generateContent',
    status: 401,
  });
  expect(gemini?.model).toBeUndefined();
  expect(gemini?.userId).toBeUndefined();
  expect(openai).toMatchObject({ path: '/v1/chat/completions', status: 401 });
  expect(lines.join('\n')).not.toContain(key);
});

test('probes and the metrics scrape log at debug, so an info log has none of them', async () => {
  await fetch(`${origin}/healthz`);
  await fetch(`${origin}/readyz`);
  await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  await fetch(`${origin}/api/users`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  const logged = await accessLines();
  expect(logged.map((line) => line.path)).toEqual(['/api/users']);
});

test('GATEWAY_LOG_FORMAT=pretty: one readable line per entry, key=value pairs, the stack below', () => {
  const written: string[] = [];
  const logger = createLogger('info', 'pretty', { write: (line: string) => void written.push(line) });
  logger.info(
    { requestId: 'abc', status: 200, tokens: { input: 3 }, path: '/v1/chat completions' },
    'request',
  );
  logger.error({ err: new Error('boom') }, 'it failed');
  expect(written[0]).toMatch(
    /^\d\d:\d\d:\d\d\.\d{3} INFO  request requestId=abc status=200 tokens=\{"input":3\} path="\/v1\/chat completions"\n$/,
  );
  expect(written[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR it failed\n {4}Error: boom\n\s+at /);
  expect(formatLogLine('not json')).toBe('not json\n');
});

test('at warn, requests write no access lines at all', async () => {
  const quiet: string[] = [];
  const logger = createLogger('warn', 'json', { write: (line: string) => void quiet.push(line) });
  const other = await createGateway(
    { ...readEnvironment({}), dataDir: ':memory:', adminToken: TEST_ADMIN_TOKEN, port: 0 },
    logger,
  );
  try {
    const address = await other.app.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    expect((await fetch(`${address}/api/users`)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(quiet).toEqual([]);
  } finally {
    await other.close();
  }
});
