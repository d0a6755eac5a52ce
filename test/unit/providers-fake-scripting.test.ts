import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

// The scripted behaviours of the fakes' shared scaffold, driven with plain undici requests.
const apiKey = 'sk-script';
const chatBody = { model: 'a', messages: [{ role: 'user', content: 'hi' }] };
const streamBody = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true };

describe('fake upstream scripting', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey, replyText: 'one two three four five' });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.clear());

  const send = (body: unknown, options: { bodyTimeout?: number; path?: string } = {}) =>
    request(`${fake.origin}${options.path ?? '/v1/chat/completions'}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      bodyTimeout: options.bodyTimeout,
    });

  it('records every request with its parsed body', async () => {
    await (await send(chatBody)).body.dump();
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}` },
      body: chatBody,
    });
  });

  it('scripted error with Retry-After, then normal replies again', async () => {
    fake.script({ type: 'error', status: 429, message: 'Rate limit reached', retryAfter: 3 });
    const limited = await send(chatBody);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('3');
    expect(await limited.body.json()).toEqual({
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    expect((await send(chatBody)).statusCode).toBe(200);
  });

  it('scriptAlways repeats until cleared', async () => {
    fake.scriptAlways({ type: 'error', status: 503 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const reply = await send(chatBody);
      expect(reply.statusCode).toBe(503);
      await reply.body.dump();
    }
    fake.scriptAlways(undefined);
    expect((await send(chatBody)).statusCode).toBe(200);
  });

  it('reset before any byte', async () => {
    fake.script({ type: 'reset' });
    await expect(send(chatBody)).rejects.toThrow();
  });

  it('reset mid-stream after N chunks', async () => {
    fake.script({ type: 'reset-mid-stream', afterChunks: 2 });
    const reply = await send(streamBody);
    expect(reply.statusCode).toBe(200);
    let received = '';
    await expect(
      (async () => {
        for await (const chunk of reply.body) received += String(chunk);
      })(),
    ).rejects.toThrow();
    expect(received.match(/^data: /gm)).toHaveLength(2);
  });

  it('stall after headers and one chunk', async () => {
    fake.script({ type: 'stall', afterChunks: 1 });
    const reply = await send(streamBody, { bodyTimeout: 300 });
    let received = '';
    await expect(
      (async () => {
        for await (const chunk of reply.body) received += String(chunk);
      })(),
    ).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    expect(received.match(/^data: /gm)).toHaveLength(1);
  });

  it('slow first byte, fixed text and usage', async () => {
    fake.script({
      type: 'reply',
      delayMs: 250,
      text: 'scripted',
      usage: { inputTokens: 3, outputTokens: 1 },
    });
    const started = performance.now();
    const reply = await send(chatBody);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    expect(await reply.body.json()).toMatchObject({
      choices: [{ message: { content: 'scripted' } }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
  });

  it('accepts several keys', async () => {
    const multi = await startFakeOpenAI({ apiKey: ['sk-a', 'sk-b'] });
    const status = async (key: string) => {
      const reply = await request(`${multi.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify(chatBody),
      });
      await reply.body.dump();
      return reply.statusCode;
    };
    expect([await status('sk-a'), await status('sk-b'), await status('sk-c')]).toEqual([200, 200, 401]);
    await multi.close();
  });

  it('unknown paths get a vendor-shaped 404', async () => {
    const reply = await send({}, { path: '/v1/nothing' });
    expect(reply.statusCode).toBe(404);
    expect(await reply.body.json()).toMatchObject({ error: { code: 'unknown_url' } });
  });
});
