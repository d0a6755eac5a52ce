import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

let fx: RelayFixture;
beforeAll(async () => {
  fx = await startRelayFixture();
  await fx.gw.admin('PATCH', '/settings', {
    stream_idle_timeout_s: 1,
    retry_times: 0,
    channel_failure_threshold: 1000,
  });
});
afterAll(async () => fx.close());
beforeEach(() => fx.upstream.clear());

async function streamRaw(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      ...body,
    }),
    signal,
  });
}

test('passthrough: a client that asked for usage gets the upstream bytes unchanged', async () => {
  const response = await streamRaw({ stream_options: { include_usage: true } });
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(response.headers.get('x-gateway-request-id')).toMatch(/^[0-9a-f]{32}$/);
  const text = await response.text();
  const direct = await fetch(`${fx.upstream.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer upstream-secret-key`, 'content-type': 'application/json' },
    body: JSON.stringify(fx.upstream.requests[0]!.body),
  });
  // ids are numbered per request by the fake; everything else is byte-identical
  expect(text.replace(/fake\d{4}/g, 'ID')).toBe((await direct.text()).replace(/fake\d{4}/g, 'ID'));
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
});

test('a silent upstream is cut off after stream_idle_timeout_s with an error event; output so far is charged', async () => {
  fx.upstream.script({ type: 'stall', afterChunks: 3 });
  const started = Date.now();
  const response = await streamRaw({});
  const text = await response.text();
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(Date.now() - started).toBeLessThan(5000);
  const events = text.split('\n\n').filter(Boolean);
  const last = JSON.parse(events.at(-1)!.replace(/^data: /, ''));
  expect(last.error.code).toBe('upstream_timeout');
  expect(last.error.message).toMatch(
    /^the upstream sent nothing for 1 seconds \(stream_idle_timeout_s\) \(request id: [0-9a-f]{32}\)$/,
  );
  const [log] = await fx.logs();
  expect(log.status_code).toBe(200);
  expect(log.error).toContain('sent nothing for 1 seconds');
  expect(log.cost).toBeGreaterThan(0);
  expect(log.completion_tokens).toBeGreaterThan(0);
});

test('an upstream that breaks off mid-stream: the client gets what came and an error event', async () => {
  fx.upstream.script({ type: 'reset-mid-stream', afterChunks: 3 });
  const text = await (await streamRaw({})).text();
  const events = text.split('\n\n').filter(Boolean);
  expect(events.length).toBe(4);
  expect(JSON.parse(events.at(-1)!.replace(/^data: /, '')).error.code).toBe('upstream_error');
  const [log] = await fx.logs();
  expect(log.error).toContain('the upstream stream broke off');
  expect(log.cost).toBeGreaterThan(0);
});

test('a client that leaves mid-stream aborts the upstream at once and pays for what was produced', async () => {
  fx.upstream.script({ type: 'stall', afterChunks: 2 });
  const controller = new AbortController();
  const response = await streamRaw({}, controller.signal);
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  const tracker = fx.gw.gateway.services.tracker;
  for (let waited = 0; waited < 500 && tracker.activeCount > 0; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(tracker.activeCount).toBe(0);
  const [log] = await fx.logs();
  expect(log.error).toBe('client closed the connection');
  expect(log.prompt_tokens).toBeGreaterThan(0);
  expect(log.cost).toBeGreaterThan(0);
});

test('a client that leaves while a non-streamed answer is awaited ends the upstream call at once and pays nothing', async () => {
  fx.upstream.script({ type: 'reply', delayMs: 10_000 });
  const controller = new AbortController();
  const answer = streamRaw({ stream: false }, controller.signal).catch((error: unknown) => error);
  await expect.poll(() => fx.upstream.requests.length).toBe(1);
  const tracker = fx.gw.gateway.services.tracker;
  expect(tracker.activeCount).toBe(1);
  controller.abort();
  await answer;
  await expect.poll(() => tracker.activeCount, { timeout: 1_000 }).toBe(0);
  const [log] = await fx.logs();
  expect(log.error).toBe('upstream request failed: client closed the connection');
  expect(log.cost).toBe(0);
});
