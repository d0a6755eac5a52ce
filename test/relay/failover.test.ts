import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { APIError } from 'openai';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import {
  addBackupChannel,
  resetChannelHealth,
  startRelayFixture,
  type RelayFixture,
} from '../helpers/relay-fixture.js';

let fx: RelayFixture;
let backup: FakeUpstream;
let backupChannelId: number;

beforeAll(async () => {
  fx = await startRelayFixture();
  ({ backup, backupId: backupChannelId } = await addBackupChannel(fx));
  await fx.gw.admin('PATCH', '/settings', { retry_times: 2 });
});
afterAll(async () => {
  await fx.close();
  await backup.close();
});
beforeEach(async () => {
  fx.upstream.clear();
  backup.clear();
  await resetChannelHealth(fx, [{ id: fx.channelId }, { id: backupChannelId }]);
});

const ask = () =>
  fx.openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });

test.each([
  ['a 500', { type: 'error' as const, status: 500 }],
  ['a 503', { type: 'error' as const, status: 503 }],
  ['a 429', { type: 'error' as const, status: 429, retryAfter: 3 }],
  ['a connection reset', { type: 'reset' as const }],
])('%s from the first channel moves on to the next', async (_name, step) => {
  fx.upstream.script(step);
  const completion = await ask();
  expect(completion.choices[0]?.message.content).toBe('Hello from the backup.');
  expect(fx.upstream.requests).toHaveLength(1);
  expect(backup.requests).toHaveLength(1);
  // the backup has no model mapping: it receives the public model id
  expect((backup.requests[0]!.body as { model: string }).model).toBe('gpt-4o');
  const [log] = await fx.logs();
  expect(log).toMatchObject({ channel_id: backupChannelId, status_code: 200 });
});

test('a 400 is the caller’s fault: passed through at once, not retried, nothing charged', async () => {
  const before = await fx.user();
  fx.upstream.script({ type: 'error', status: 400, message: 'bad parameter foo' });
  const error = await ask().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(APIError);
  expect((error as APIError).status).toBe(400);
  expect((error as APIError).error).toEqual({
    message: 'bad parameter foo',
    type: 'invalid_request_error',
    param: null,
    code: null,
  });
  expect(backup.requests).toHaveLength(0);
  const [log] = await fx.logs();
  expect(log).toMatchObject({ status_code: 400, cost: 0, prompt_tokens: 0 });
  expect(log.error).toContain('bad parameter foo');
  expect((await fx.user()).balance).toBe(before.balance);
});

test('when every channel fails, the last upstream error is passed through with Retry-After', async () => {
  const before = await fx.user();
  fx.upstream.script({ type: 'error', status: 503 });
  backup.script({ type: 'error', status: 429, retryAfter: 7, message: 'slow down' });
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('7');
  expect(response.headers.get('x-gateway-request-id')).toMatch(/^[0-9a-f]{32}$/);
  expect(await response.json()).toEqual({
    error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
  });
  expect((await fx.user()).balance).toBe(before.balance);
});

test('unreachable upstreams end in 502 upstream_error, nothing charged', async () => {
  fx.upstream.script({ type: 'reset' });
  backup.script({ type: 'reset' });
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(502);
  const body = (await response.json()) as { error: { code: string; message: string; type: string } };
  expect(body.error.code).toBe('upstream_error');
  expect(body.error.type).toBe('gateway_api_error');
  expect(body.error.message).toMatch(/^upstream request failed: .+ \(request id: [0-9a-f]{32}\)$/);
  const [log] = await fx.logs();
  expect(log).toMatchObject({ status_code: 502, cost: 0 });
});

test('retry_times bounds the attempts: 0 means the first channel only', async () => {
  await fx.gw.admin('PATCH', '/settings', { retry_times: 0 });
  try {
    fx.upstream.script({ type: 'error', status: 500 });
    const error = await ask().catch((caught: unknown) => caught);
    expect((error as APIError).status).toBe(500);
    expect(backup.requests).toHaveLength(0);
  } finally {
    await fx.gw.admin('PATCH', '/settings', { retry_times: 2 });
  }
});

test('a stream whose upstream resets before the first chunk moves on to the next channel', async () => {
  fx.upstream.script({ type: 'reset-mid-stream', afterChunks: 0 });
  const stream = await fx.openai.chat.completions.create({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  expect(text).toBe('Hello from the backup.');
});

test('an admin key pins a channel with the -<id> suffix', async () => {
  const admin = await fx.gw.admin('POST', '/users', { username: 'root-user', role: 'admin', balance: 5 });
  const key = await fx.gw.admin('POST', '/keys', { user_id: admin.body.id });
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key.body.key}-${backupChannelId}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(response.status).toBe(200);
  expect(fx.upstream.requests).toHaveLength(0);
  expect(backup.requests).toHaveLength(1);
});
