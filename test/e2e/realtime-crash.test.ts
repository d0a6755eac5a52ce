import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import {
  adminCall,
  ensureGatewayBuilt,
  killBuiltGateway,
  startBuiltGateway,
  stopBuiltGateway,
} from '../helpers/built-gateway.js';
import { sdkSession } from '../realtime/realtime-clients.js';

/**
 * Admin-api sections 3 (rule 6) and 14 against the real process: a realtime session cut by SIGKILL
 * loses at most the response in progress, whose hold (and the session's slot) the restarted
 * gateway returns, each once, with an `interrupted` record; responses already done stay charged.
 */
const TOKEN = 'realtime-crash-admin-token';
const UPSTREAM_KEY = 'realtime-crash-upstream-key';
const START_BALANCE = 10;
const nano = (usd: number) => Math.round(usd * 1e9);

let upstream: FakeOpenAI;
let dataDir: string;

beforeAll(async () => {
  await ensureGatewayBuilt();
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-realtime-crash-'));
}, 120_000);
afterAll(async () => {
  await upstream?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('SIGKILL mid-response: the restart returns the hold, once; the response done before stays charged', async () => {
  const env = { GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: TOKEN };
  let gateway = await startBuiltGateway(env);
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
  const user = await call('POST', '/users', { username: 'crash', balance: START_BALANCE });
  const { key } = await call('POST', '/keys', { user_id: user.id, max_concurrency: 1 });

  const { realtime, event, upgraded, closed } = sdkSession(
    new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1` }),
    'gpt-realtime',
  );
  const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
  await event('session.created');
  upstream.realtime.script(
    { usage: { inputTokens: 200, outputTokens: 50 } },
    { hold: true, usage: { inputTokens: 400, outputTokens: 60 } },
  );
  realtime.send({ type: 'response.create' });
  await event('response.done');
  realtime.send({ type: 'response.create' });
  await event('response.output_item.done', 2);
  const firstCost = Math.round((200 * nano(4) + 50 * nano(16)) / 1e6);
  // The second response holds its pre-charge: the first's input again, and 8192 output tokens.
  const held = Math.round((200 * nano(4) + 8192 * nano(16)) / 1e6);
  const during = await call('GET', `/users/${user.id}`);
  expect(nano(during.balance)).toBe(nano(START_BALANCE) - firstCost - held);

  await killBuiltGateway(gateway);
  expect((await closed).code).toBe(1006);

  gateway = await startBuiltGateway(env);
  const books = async () => {
    const logs = ((await call('GET', '/logs?limit=100')).data as any[]).sort((a, b) =>
      a.request_id.localeCompare(b.request_id),
    );
    const owner = await call('GET', `/users/${user.id}`);
    return { logs, balance: owner.balance, used: owner.used };
  };
  const after = await books();
  expect(after.logs.map((log) => log.request_id)).toEqual([requestId, `${requestId}-1`, `${requestId}-2`]);
  expect(after.logs[0]).toMatchObject({ status_code: 0, cost: 0, error: 'interrupted' });
  expect(after.logs[1]).toMatchObject({ status_code: 200, prompt_tokens: 200, completion_tokens: 50 });
  expect(nano(after.logs[1].cost)).toBe(firstCost);
  expect(after.logs[2]).toMatchObject({ status_code: 0, cost: 0, error: 'interrupted' });
  expect(nano(after.balance)).toBe(nano(START_BALANCE) - firstCost);
  expect(nano(after.used)).toBe(firstCost);

  // The session's concurrency slot came back with its hold: a new session opens.
  const again = sdkSession(new OpenAI({ apiKey: key, baseURL: `${gateway.origin}/v1` }), 'gpt-realtime');
  await again.event('session.created');
  again.realtime.close();
  await again.closed;

  await killBuiltGateway(gateway);
  gateway = await startBuiltGateway(env);
  const later = await books();
  expect(later.logs.filter((log) => log.request_id.startsWith(requestId))).toEqual(after.logs);
  expect(later.balance).toBe(after.balance);
  expect(await stopBuiltGateway(gateway)).toBe(0);
}, 90_000);
