import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import {
  addBackupChannel,
  resetChannelHealth,
  startRelayFixture,
  UPSTREAM_KEY,
  type RelayFixture,
} from '../helpers/relay-fixture.js';

// admin-api section 7: health per (channel, model) and per key, as routing sees it.
let fx: RelayFixture;
let backup: FakeUpstream;
let backupId: number;

beforeAll(async () => {
  fx = await startRelayFixture();
  ({ backup, backupId } = await addBackupChannel(fx));
});
afterAll(async () => {
  await fx.close();
  await backup.close();
});
beforeEach(async () => {
  fx.upstream.clear();
  backup.clear();
  await resetChannelHealth(fx, [
    { id: fx.channelId, changes: { keys: [UPSTREAM_KEY] } },
    { id: backupId, changes: { keys: [UPSTREAM_KEY] } },
  ]);
});

const chat = (body: Record<string, unknown> = {}) =>
  send(fx.gw.origin, '/v1/chat/completions', {
    method: 'POST',
    headers: bearer(fx.key),
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body },
  });

test('429 with Retry-After cools the pair down for at least that long; the second channel answers meanwhile', async () => {
  fx.upstream.script({ type: 'error', status: 429, retryAfter: 30 });
  const first = await chat();
  expect(first.body.choices[0].message.content).toBe('Hello from the backup.');
  const second = await chat();
  expect(second.body.choices[0].message.content).toBe('Hello from the backup.');
  expect(fx.upstream.requests).toHaveLength(1);
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  const pair = health.data.find((entry: { model: string }) => entry.model === 'gpt-4o');
  expect(pair).toMatchObject({ state: 'cooling_down', failures: 1 });
  expect(pair.until).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 28);
  // the channel's other model is not touched
  expect((await chat({ model: 'gpt-4o-mini' })).status).toBe(200);
  expect(fx.upstream.requests).toHaveLength(2);
});

test('an upstream 400 saying the input is too long says nothing of the pair: passed through, the pair stays healthy', async () => {
  const message =
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages.";
  fx.upstream.script({ type: 'error', status: 400, message });
  const response = await chat();
  expect(response.status).toBe(400);
  expect(response.body.error.message).toBe(message);
  expect(backup.requests).toHaveLength(0);
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  expect(health.data[0]).toMatchObject({ state: 'healthy', failures: 0 });
});

test('a refused key is set aside and the request goes on with the next key of the same channel', async () => {
  await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { keys: ['sk-revoked-0123456789', UPSTREAM_KEY] });
  const answers = [await chat(), await chat(), await chat()];
  for (const answer of answers)
    expect(answer.body.choices[0].message.content).toBe('Hello from fake OpenAI.');
  const presented = fx.upstream.requests.map((request) => request.headers.authorization);
  expect(presented.filter((value) => value === 'Bearer sk-revoked-0123456789')).toHaveLength(1);
  expect(backup.requests).toHaveLength(0);
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  expect(health.keys).toEqual([
    { index: 0, state: 'refused' },
    { index: 1, state: 'active' },
  ]);
  expect(health.data[0]).toMatchObject({ state: 'healthy', failures: 0 });
});

test('when every key is refused the channel is auto-disabled; the client sees the upstream error with the key redacted', async () => {
  await fx.gw.admin('PATCH', `/channels/${backupId}`, { status: 'disabled' });
  const secret = 'sk-revoked-secret-0123456789';
  await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { keys: [secret] });
  const response = await chat();
  expect(response.status).toBe(401);
  expect(response.text).not.toContain(secret);
  expect(response.body.error.message).toContain('Incorrect API key provided: ***');
  const [log] = await fx.logs();
  expect(log.error).not.toContain(secret);
  expect(log.error).toContain('***');
  expect(log.cost).toBe(0);
  expect((await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status).toBe('auto_disabled');
});

test('a 200 whose body is not JSON is an upstream failure: the next channel answers, nothing charged for it', async () => {
  fx.upstream.script({ type: 'raw-stream', chunks: ['<html>Bad gateway</html>'] });
  const response = await chat();
  expect(response.body.choices[0].message.content).toBe('Hello from the backup.');
  const [log] = await fx.logs();
  expect(log.channel_id).toBe(backupId);
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  expect(health.data[0]).toMatchObject({ state: 'cooling_down', failures: 1 });
});

test('with no other channel, a non-JSON 200 is a 502, not an empty success, and nothing is charged', async () => {
  await fx.gw.admin('PATCH', `/channels/${backupId}`, { status: 'disabled' });
  const before = await fx.user();
  fx.upstream.script({ type: 'raw-stream', chunks: ['not json at all'] });
  const response = await chat();
  expect(response.status).toBe(502);
  expect(response.body.error.message).toMatch(
    /^upstream request failed: the upstream answered 200 with a body that is not JSON/,
  );
  expect((await fx.user()).balance).toBe(before.balance);
});

test('a reply without usage is billed on the text it produced, not as zero output', async () => {
  const text = 'word '.repeat(200).trim();
  const body = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  };
  fx.upstream.script({ type: 'raw-stream', chunks: [JSON.stringify(body)] });
  const response = await chat();
  expect(response.status).toBe(200);
  const [log] = await fx.logs();
  expect(log.completion_tokens).toBeGreaterThanOrEqual(150);
  expect(log.cost).toBeGreaterThan(0);
});

test('with one candidate, a 429 with Retry-After holds the model: the gateway answers 429 itself until then, charging nothing', async () => {
  await fx.gw.admin('PATCH', `/channels/${backupId}`, { status: 'disabled' });
  const upstreamMessage =
    'Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3.';
  fx.upstream.script({ type: 'error', status: 429, retryAfter: 2, message: upstreamMessage });
  const first = await chat();
  expect(first.status).toBe(429);
  expect(first.body.error.message).toBe(upstreamMessage);
  expect(first.headers.get('retry-after')).toBe('2');
  const before = await fx.user();
  const logsBefore = await fx.logs();
  expect(logsBefore[0]).toMatchObject({ status_code: 429, cost: 0, channel_id: fx.channelId });

  for (const response of [await chat(), await chat({ stream: true })]) {
    expectOpenAIError(response, { status: 429, code: 'rate_limit_exceeded', message: upstreamMessage });
    expect(['1', '2']).toContain(response.headers.get('retry-after'));
  }
  const messages = await send(fx.gw.origin, '/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
    body: { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  });
  // Refused while choosing the channel: the family A shape on every endpoint (client-api section 7).
  expectOpenAIError(messages, { status: 429, code: 'rate_limit_exceeded', message: upstreamMessage });
  expect(fx.upstream.requests).toHaveLength(1);
  expect((await fx.user()).balance).toBe(before.balance);
  // Refused on arrival, like a key's own rate limit: nothing reserved, so no usage record either.
  expect(await fx.logs()).toHaveLength(logsBefore.length);

  // Once the upstream's time is up the model is called again, though its cooldown (5 s) runs on.
  await new Promise((resolve) => setTimeout(resolve, 2100));
  expect((await chat()).status).toBe(200);
  expect(fx.upstream.requests).toHaveLength(2);
});

test('with one candidate, a 5xx with Retry-After still lets the next request try it', async () => {
  await fx.gw.admin('PATCH', `/channels/${backupId}`, { status: 'disabled' });
  fx.upstream.script({ type: 'error', status: 503, retryAfter: 30 });
  expect((await chat()).status).toBe(503);
  expect((await chat()).status).toBe(200);
  expect(fx.upstream.requests).toHaveLength(2);
});

test("requests answered during a hold do not count against the key's own rate limit", async () => {
  await fx.gw.admin('PATCH', `/channels/${backupId}`, { status: 'disabled' });
  const user = await fx.gw.admin('POST', '/users', { username: 'held-rpm', balance: 5 });
  const limited = (await fx.gw.admin('POST', '/keys', { user_id: user.body.id, rpm: 3 })).body.key;
  const ask = () =>
    send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(limited),
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    });
  fx.upstream.script({ type: 'error', status: 429, retryAfter: 1, message: 'slow down' });
  expect((await ask()).status).toBe(429);
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const held = await ask();
    expect(held.body.error).toMatchObject({
      code: 'rate_limit_exceeded',
      message: expect.stringMatching(/^slow down/),
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 1100));
  // The second request the key's limit counted: within its 3 per minute.
  expect((await ask()).status).toBe(200);
});
