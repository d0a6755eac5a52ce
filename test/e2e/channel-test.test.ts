import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeJina } from '../fakes/fake-jina.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

// admin-api section 2, Channels: `POST /api/channels/{id}/test` sends a one-token request upstream.
const upstreamKey = 'sk-upstream-secret-0123456789';

interface ProbeReply {
  ok: boolean;
  latency_ms: number;
  error: string | null;
}

let gateway: TestGateway;
let fakes: Record<'openai' | 'anthropic' | 'gemini', FakeUpstream>;

beforeAll(async () => {
  gateway = await startTestGateway();
  fakes = {
    openai: await startFakeOpenAI({ apiKey: upstreamKey }),
    anthropic: await startFakeAnthropic({ apiKey: upstreamKey }),
    gemini: await startFakeGemini({ apiKey: upstreamKey }),
  };
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all(Object.values(fakes ?? {}).map((fake) => fake.close()));
});
beforeEach(() => {
  for (const fake of Object.values(fakes)) fake.clear();
});

async function createChannel(fields: {
  type: string;
  base_url: string;
  keys?: string[];
  models?: string[];
  model_mapping?: Record<string, string>;
  endpoints?: string[];
}): Promise<number> {
  const created = await gateway.admin<{ id: number }>('POST', '/channels', {
    name: `${fields.type} test channel`,
    keys: [upstreamKey],
    models: ['public-model'],
    model_mapping: { 'public-model': 'upstream-model' },
    ...fields,
  });
  expect(created.status).toBe(201);
  expect(created.body.id).toEqual(expect.any(Number));
  return created.body.id;
}

async function testChannel(id: number): Promise<ProbeReply> {
  const response = await gateway.admin<ProbeReply>('POST', `/channels/${id}/test`);
  expect(response.status).toBe(200);
  return response.body;
}

describe('POST /api/channels/{id}/test', () => {
  it('openai: one chat completion of one token to the mapped model', async () => {
    const id = await createChannel({ type: 'openai', base_url: fakes.openai.origin });
    expect(await testChannel(id)).toEqual({ ok: true, latency_ms: expect.any(Number), error: null });
    expect(fakes.openai.requests).toHaveLength(1);
    const [request] = fakes.openai.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${upstreamKey}` },
    });
    expect(request?.body).toEqual({
      model: 'upstream-model',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 1,
    });
  });

  it('anthropic: one message of one token, base_url with a trailing /v1', async () => {
    const id = await createChannel({ type: 'anthropic', base_url: `${fakes.anthropic.origin}/v1` });
    expect(await testChannel(id)).toEqual({ ok: true, latency_ms: expect.any(Number), error: null });
    expect(fakes.anthropic.requests).toHaveLength(1);
    const [request] = fakes.anthropic.requests;
    expect(request).toMatchObject({
      url: '/v1/messages',
      headers: { 'x-api-key': upstreamKey, 'anthropic-version': '2023-06-01' },
    });
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      model: 'upstream-model',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('gemini: one generateContent of one token', async () => {
    const id = await createChannel({ type: 'gemini', base_url: `${fakes.gemini.origin}/` });
    expect(await testChannel(id)).toEqual({ ok: true, latency_ms: expect.any(Number), error: null });
    expect(fakes.gemini.requests).toHaveLength(1);
    const [request] = fakes.gemini.requests;
    expect(request).toMatchObject({
      url: '/v1beta/models/upstream-model:generateContent',
      headers: { 'x-goog-api-key': upstreamKey },
    });
    expect(request?.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { maxOutputTokens: 1 },
    });
  });

  it('a rerank-only channel: one rerank of one document instead of a chat request', async () => {
    const jina = await startFakeJina({ apiKey: upstreamKey });
    try {
      const id = await createChannel({ type: 'openai', base_url: jina.origin, endpoints: ['jina-rerank'] });
      expect(await testChannel(id)).toEqual({ ok: true, latency_ms: expect.any(Number), error: null });
      expect(jina.requests).toHaveLength(1);
      expect(jina.requests[0]).toMatchObject({
        url: '/v1/rerank',
        headers: { authorization: `Bearer ${upstreamKey}` },
      });
      expect(jina.requests[0]?.body).toEqual({
        model: 'upstream-model',
        query: 'hi',
        documents: ['hi'],
        top_n: 1,
      });
    } finally {
      await jina.close();
    }
  });

  it('a channel declaring a conversational type besides rerank keeps the chat probe', async () => {
    const id = await createChannel({
      type: 'openai',
      base_url: fakes.openai.origin,
      endpoints: ['jina-rerank', 'openai'],
    });
    expect((await testChannel(id)).ok).toBe(true);
    expect(fakes.openai.requests[0]?.url).toBe('/v1/chat/completions');
  });

  it('an unmapped first model goes upstream under its own name', async () => {
    const id = await createChannel({
      type: 'openai',
      base_url: fakes.openai.origin,
      models: ['gpt-plain', 'public-model'],
    });
    expect((await testChannel(id)).ok).toBe(true);
    expect(fakes.openai.requests[0]?.body).toMatchObject({ model: 'gpt-plain' });
  });

  it.each(['openai', 'anthropic', 'gemini'] as const)('%s wrong key: 401, key not shown', async (type) => {
    const wrongKey = 'sk-wrong-upstream-secret-42';
    const id = await createChannel({ type, base_url: fakes[type].origin, keys: [wrongKey] });
    const result = await testChannel(id);
    expect(result.ok).toBe(false);
    expect(result.latency_ms).toEqual(expect.any(Number));
    expect(result.error).toContain('401');
    expect(result.error).not.toContain(wrongKey);
  });

  it('upstream rate limit: status and the vendor message', async () => {
    const id = await createChannel({ type: 'anthropic', base_url: fakes.anthropic.origin });
    fakes.anthropic.script({
      type: 'error',
      status: 429,
      message: 'Number of requests has exceeded your rate limit',
    });
    expect(await testChannel(id)).toMatchObject({
      ok: false,
      error: 'HTTP 429: Number of requests has exceeded your rate limit',
    });
  });

  it('dead upstream: a connection error', async () => {
    const id = await createChannel({ type: 'openai', base_url: `http://127.0.0.1:${await closedPort()}` });
    const result = await testChannel(id);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNREFUSED/);
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
