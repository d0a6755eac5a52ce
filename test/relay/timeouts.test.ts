import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { resetChannelHealth, startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { bearer, expectAnthropicError, expectOpenAIError, send } from '../helpers/client-request.js';
import { startUnacceptingListener, type UnacceptingListener } from '../helpers/unaccepting-listener.js';

// admin-api section 7: one meaning per timeout, each the gateway's own 504 `upstream_timeout`.
let fx: RelayFixture;
let silent: UnacceptingListener;

beforeAll(async () => {
  fx = await startRelayFixture();
  silent = await startUnacceptingListener();
  await fx.gw.admin('PATCH', '/settings', {
    stream_idle_timeout_s: 1,
    upstream_timeout_s: 2,
    connect_timeout_s: 1,
    retry_times: 0,
  });
});
afterAll(async () => {
  silent.close();
  await fx.close();
});
beforeEach(async () => {
  fx.upstream.clear();
  await resetChannelHealth(fx, [{ id: fx.channelId, changes: { base_url: fx.upstream.origin } }]);
});

const chat = (body: Record<string, unknown> = {}) =>
  send(fx.gw.origin, '/v1/chat/completions', {
    method: 'POST',
    headers: bearer(fx.key),
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body },
  });

test('a non-streamed reply slower than stream_idle_timeout_s but within upstream_timeout_s succeeds', async () => {
  fx.upstream.script({ type: 'reply', delayMs: 1_500 });
  const response = await chat();
  expect(response.status).toBe(200);
  expect(response.body.choices[0].message.content).toBe('Hello from fake OpenAI.');
  const [log] = await fx.logs();
  expect(log).toMatchObject({ status_code: 200, error: null });
  expect(log.cost).toBeGreaterThan(0);
});

test('a non-streamed reply past upstream_timeout_s is a 504 upstream_timeout naming the limit, not charged', async () => {
  const before = await fx.user();
  fx.upstream.script({ type: 'reply', delayMs: 3_000 });
  const started = Date.now();
  const response = await chat();
  expect(Date.now() - started).toBeLessThan(2_900);
  expectOpenAIError(response, {
    status: 504,
    code: 'upstream_timeout',
    message: 'the upstream did not finish its reply within 2 seconds (upstream_timeout_s)',
  });
  const [log] = await fx.logs();
  expect(log).toMatchObject({ status_code: 504, cost: 0 });
  expect((await fx.user()).balance).toBe(before.balance);
});

test('the deadline covers the body too: a reply that starts in time but never ends times out', async () => {
  fx.upstream.script({ type: 'stall', afterChunks: 0 });
  const response = await chat();
  expect(response.status).toBe(504);
  expect(response.body.error.message).toContain('(upstream_timeout_s)');
});

test('on /v1/messages the timeout comes in the family B shape', async () => {
  fx.upstream.script({ type: 'reply', delayMs: 3_000 });
  const response = await send(fx.gw.origin, '/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
    body: { model: 'gpt-4o', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
  });
  expectAnthropicError(response, {
    status: 504,
    type: 'timeout_error',
    message: 'the upstream did not finish its reply within 2 seconds (upstream_timeout_s)',
  });
});

test('a stream whose first chunk does not come within stream_idle_timeout_s is a 504 before any byte', async () => {
  fx.upstream.script({ type: 'reply', delayMs: 1_800 });
  const response = await chat({ stream: true });
  expectOpenAIError(response, {
    status: 504,
    code: 'upstream_timeout',
    message: 'the upstream sent nothing for 1 seconds (stream_idle_timeout_s)',
  });
});

test('an upstream that never accepts the connection times out after connect_timeout_s', async () => {
  await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { base_url: silent.origin });
  const started = Date.now();
  const response = await chat();
  expect(Date.now() - started).toBeLessThan(1_900);
  expectOpenAIError(response, {
    status: 504,
    code: 'upstream_timeout',
    message: 'could not connect to the upstream within 1 seconds (connect_timeout_s)',
  });
  const [log] = await fx.logs();
  expect(log).toMatchObject({ status_code: 504, cost: 0 });
});

test('a timeout cools down only that model of the channel; its other model keeps working', async () => {
  fx.upstream.script({ type: 'reply', delayMs: 3_000 });
  expect((await chat()).status).toBe(504);
  const mini = await chat({ model: 'gpt-4o-mini' });
  expect(mini.status).toBe(200);
  const health = (await fx.gw.admin('GET', `/channels/${fx.channelId}/health`)).body;
  expect(health.data).toMatchObject([
    { model: 'gpt-4o', state: 'cooling_down', failures: 1 },
    { model: 'gpt-4o-mini', state: 'healthy', failures: 0, until: null },
  ]);
  expect((await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status).toBe('enabled');
});
