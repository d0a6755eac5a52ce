import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeyRotation } from '../../src/providers/key-rotation.js';
import { probeChannel, type ProbeOptions } from '../../src/providers/probe-channel.js';
import { createUpstreamDispatcher } from '../../src/providers/upstream-dispatcher.js';
import type { ChannelRecord } from '../../src/store/channels-repository.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

const apiKey = 'sk-probe-secret-key';
const dispatcher = createUpstreamDispatcher();
let fakes: { openai: FakeUpstream; anthropic: FakeUpstream; gemini: FakeUpstream };
let options: ProbeOptions;

function channel(type: keyof typeof fakes, changes: Partial<ChannelRecord> = {}): ChannelRecord {
  return {
    id: 1,
    name: type,
    type,
    baseUrl: fakes[type].origin,
    keys: [apiKey],
    models: ['public-model', 'second-model'],
    modelMapping: { 'public-model': 'upstream-model' },
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    config: {},
    status: 'enabled',
    createdAt: 0,
    ...changes,
  };
}

beforeAll(async () => {
  fakes = {
    openai: await startFakeOpenAI({ apiKey }),
    anthropic: await startFakeAnthropic({ apiKey }),
    gemini: await startFakeGemini({ apiKey }),
  };
});
afterAll(async () => {
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  await dispatcher.close();
});
beforeEach(() => {
  for (const fake of Object.values(fakes)) fake.clear();
  options = { timeoutMs: 2000, dispatcher, keyRotation: new KeyRotation() };
});

describe('probeChannel sends one one-token request', () => {
  it('openai chat completions', async () => {
    const result = await probeChannel(channel('openai'), options);
    expect(result).toEqual({ ok: true, latencyMs: expect.any(Number), error: null });
    expect(fakes.openai.requests).toHaveLength(1);
    expect(fakes.openai.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
    expect(fakes.openai.requests[0]?.body).toEqual({
      model: 'upstream-model',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 1,
    });
  });

  it('anthropic messages', async () => {
    expect(
      await probeChannel(channel('anthropic', { baseUrl: `${fakes.anthropic.origin}/v1/` }), options),
    ).toMatchObject({
      ok: true,
    });
    expect(fakes.anthropic.requests[0]).toMatchObject({
      url: '/v1/messages',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
    });
    expect(fakes.anthropic.requests[0]?.body).toEqual({
      model: 'upstream-model',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('gemini generateContent', async () => {
    expect(await probeChannel(channel('gemini'), options)).toMatchObject({ ok: true });
    expect(fakes.gemini.requests[0]).toMatchObject({
      url: '/v1beta/models/upstream-model:generateContent',
      headers: { 'x-goog-api-key': apiKey },
    });
    expect(fakes.gemini.requests[0]?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { maxOutputTokens: 1 },
    });
  });

  it('rotates over the channel keys', async () => {
    const rotating = channel('openai', { keys: [apiKey, 'sk-second'] });
    await probeChannel(rotating, options);
    const second = await probeChannel(rotating, options);
    expect(fakes.openai.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${apiKey}`,
      'Bearer sk-second',
    ]);
    expect(second).toMatchObject({ ok: false, error: expect.stringMatching(/^HTTP 401: Incorrect API key/) });
    expect(second.error).not.toContain('sk-second');
  });
});

describe('probeChannel reports upstream failures without throwing', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)(
    '%s wrong key: HTTP 401, key redacted',
    async (type) => {
      const wrongKey = 'sk-wrong-secret-value';
      const result = await probeChannel(channel(type, { keys: [wrongKey] }), options);
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^HTTP 401: \S/);
      expect(result.error).not.toContain(wrongKey);
    },
  );

  it('upstream error message and status', async () => {
    fakes.anthropic.script({ type: 'error', status: 529, message: 'Overloaded' });
    expect(await probeChannel(channel('anthropic'), options)).toMatchObject({
      ok: false,
      error: 'HTTP 529: Overloaded',
    });
  });

  it('dead upstream: connection refused', async () => {
    const port = await closedPort();
    const result = await probeChannel(channel('openai', { baseUrl: `http://127.0.0.1:${port}` }), options);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('connection reset before any byte', async () => {
    fakes.gemini.script({ type: 'reset' });
    const result = await probeChannel(channel('gemini'), options);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/other side closed|ECONNRESET|socket/i);
  });

  it('a stall or a slow first byte is a timeout', async () => {
    fakes.openai.script({ type: 'stall' }, { type: 'reply', delayMs: 1000 });
    const quick = { ...options, timeoutMs: 300 };
    const stalled = await probeChannel(channel('openai'), quick);
    expect(stalled).toMatchObject({ ok: false, error: 'timed out after 300 ms' });
    expect(stalled.latencyMs).toBeGreaterThanOrEqual(250);
    expect(await probeChannel(channel('openai'), quick)).toMatchObject({ error: 'timed out after 300 ms' });
  });

  it('channels that cannot be probed', async () => {
    expect(await probeChannel(channel('openai', { type: 'nope' }), options)).toMatchObject({
      ok: false,
      error: 'unknown channel type "nope"',
    });
    expect(await probeChannel(channel('openai', { models: [] }), options)).toMatchObject({
      error: 'channel has no models',
    });
    expect(await probeChannel(channel('openai', { keys: [] }), options)).toMatchObject({
      error: 'channel has no keys',
    });
    expect(await probeChannel(channel('openai', { baseUrl: 'ftp://x' }), options)).toMatchObject({
      error: 'invalid base_url: ftp://x/v1/chat/completions',
    });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
