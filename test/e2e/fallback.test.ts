import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * Fallback across models (admin-api section 11.3) through the official SDKs: a failure of a kind
 * in `fallback_on`, before any byte reached the client, moves on to the next target, converted to
 * the client's protocol; any other failure, and anything after the first content, is answered as
 * it is. Proactive checks keep a target from requests it cannot take, and a request's own
 * `models` name fallbacks of its own.
 */
const KEY = 'upstream-key';
const ask = { max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('fallback across models', () => {
  let fx: RelayFixture;
  let claude: FakeUpstream;
  let gemini: FakeUpstream;

  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100 });
    claude = await startFakeAnthropic({ apiKey: KEY });
    gemini = await startFakeGemini({ apiKey: KEY });
    const admin = fx.gw.admin;
    await admin('POST', '/channels', {
      name: 'claude',
      type: 'anthropic',
      base_url: claude.origin,
      keys: [KEY],
      models: ['claude-a', 'claude-unpriced'],
    });
    await admin('POST', '/channels', {
      name: 'gemini',
      type: 'gemini',
      base_url: gemini.origin,
      keys: [KEY],
      models: ['gemini-b'],
    });
    await admin('PUT', '/prices/claude-a', { input: 3, output: 15 });
    await admin('PUT', '/prices/gemini-b', { input: 1, output: 2 });
    const virtual = (name: string, targets: string[], extra: Record<string, unknown> = {}) =>
      admin('POST', '/virtual-models', {
        name,
        targets: targets.map((model, index) => ({ model, priority: targets.length - index })),
        ...extra,
      });
    await virtual('smart', ['claude-a', 'gemini-b', 'gpt-4o']);
    await virtual('safe', ['gpt-4o', 'claude-a']);
    await virtual('strict', ['claude-a', 'gemini-b'], { fallback_on: ['server_error'] });
    await virtual('openai-first', ['gpt-4o', 'gemini-b']);
  });
  afterAll(async () => {
    await fx?.close();
    await claude?.close();
    await gemini?.close();
  });
  beforeEach(() => {
    for (const fake of [fx.upstream, claude, gemini]) fake.clear();
  });

  const chat = (model: string, body: Record<string, unknown> = {}) =>
    fx.openai.chat.completions.create({ model, ...ask, ...body } as never).withResponse();
  const lastRecord = async () =>
    (await fx.logs())[0] as { model: string; requested_model: string; cost: number };

  test('a rate-limited first target moves on to the next, converted, and is billed at the served price', async () => {
    claude.script({ type: 'error', status: 429, message: 'slow down' });
    const { data, response } = await chat('smart');
    expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
    expect(data.choices[0]!.message.content).toEqual(expect.any(String));
    expect([claude.requests.length, gemini.requests.length]).toEqual([1, 1]);
    const record = await lastRecord();
    expect(record).toMatchObject({ model: 'gemini-b', requested_model: 'smart' });
    const { prompt_tokens: input, completion_tokens: output } = data.usage!;
    expect(record.cost).toBeCloseTo((input * 1 + output * 2) / 1e6, 12);
  });

  test("an input too long for the first target (Anthropic's wording) moves on", async () => {
    claude.script({
      type: 'error',
      status: 400,
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
    });
    const { response } = await chat('smart');
    expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
  });

  test("a content-policy refusal (OpenAI's code) moves on", async () => {
    fx.upstream.script({ type: 'error', status: 400, message: 'rejected', code: 'content_policy_violation' });
    const { response } = await chat('safe');
    expect(response.headers.get('x-gateway-model')).toBe('claude-a');
    expect(fx.upstream.requests).toHaveLength(1);
  });

  test('a failure not in fallback_on is answered as it is', async () => {
    claude.script({ type: 'error', status: 429, message: 'slow down' });
    const failed = await chat('strict').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.RateLimitError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).headers?.get('x-gateway-model')).toBe('claude-a');
    expect(gemini.requests).toHaveLength(0);
  });

  test('a failure another target would answer no better (a bad parameter) is answered as it is', async () => {
    claude.script({ type: 'error', status: 400, message: 'temperature: must be at most 1' });
    await expect(chat('smart')).rejects.toMatchObject({ status: 400 });
    expect(gemini.requests).toHaveLength(0);
  });

  test('an error event before the first content of a stream moves on; the client sees only the answer', async () => {
    claude.script({ type: 'error-mid-stream', afterChunks: 1, message: 'Overloaded' });
    gemini.script({ type: 'reply', text: 'from gemini' });
    const { data, response } = await fx.openai.chat.completions
      .create({ model: 'smart', ...ask, stream: true })
      .withResponse();
    expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
    let text = '';
    for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('from gemini');
    expect([claude.requests.length, gemini.requests.length]).toEqual([1, 1]);
    expect(await lastRecord()).toMatchObject({ model: 'gemini-b', requested_model: 'smart' });
  });

  test('an error event before the first content is the answer when fallback_on leaves server errors out', async () => {
    await fx.gw.admin('POST', '/virtual-models', {
      name: 'rate-limits-only',
      targets: [
        { model: 'claude-a', priority: 2 },
        { model: 'gemini-b', priority: 1 },
      ],
      fallback_on: ['rate_limit'],
    });
    claude.script({ type: 'error-mid-stream', afterChunks: 1, message: 'Overloaded' });
    const stream = await fx.openai.chat.completions.create({
      model: 'rate-limits-only',
      ...ask,
      stream: true,
    });
    const ended = await (async () => {
      for await (const _chunk of stream) void _chunk;
    })().catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(OpenAI.APIError);
    expect((ended as Error).message).toContain('Overloaded');
    expect(gemini.requests).toHaveLength(0);
  });

  test('a stream that breaks after its first content ends with an error event; no other target is spliced in', async () => {
    // message_start, content_block_start, ping, then the first text delta.
    claude.script({ type: 'reset-mid-stream', afterChunks: 4, text: 'from claude, cut short' });
    const { data, response } = await fx.openai.chat.completions
      .create({ model: 'smart', ...ask, stream: true })
      .withResponse();
    expect(response.headers.get('x-gateway-model')).toBe('claude-a');
    let text = '';
    const ended = await (async () => {
      for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    expect(ended).toBeInstanceOf(OpenAI.APIError);
    expect(text.length).toBeGreaterThan(0);
    expect('from claude, cut short'.startsWith(text)).toBe(true);
    expect(gemini.requests).toHaveLength(0);
    expect(fx.upstream.requests).toHaveLength(0);
  });

  test('a messages client falls back from an OpenAI target to a Gemini one', async () => {
    fx.upstream.script({ type: 'error', status: 500, message: 'boom' });
    gemini.script({ type: 'reply', text: 'gemini speaks' });
    const anthropic = new Anthropic({ apiKey: fx.key, baseURL: fx.gw.origin, maxRetries: 0 });
    const { data, response } = await anthropic.messages
      .create({ model: 'openai-first', ...ask })
      .withResponse();
    expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
    expect(data.content.find((block) => block.type === 'text')).toMatchObject({ text: 'gemini speaks' });
  });

  test('a responses client streaming falls back from a Gemini target to an Anthropic one', async () => {
    await fx.gw.admin('POST', '/virtual-models', {
      name: 'gemini-first',
      targets: [
        { model: 'gemini-b', priority: 2 },
        { model: 'claude-a', priority: 1 },
      ],
    });
    gemini.script({ type: 'error', status: 503, message: 'The model is overloaded.' });
    claude.script({ type: 'reply', text: 'claude streams' });
    const stream = await fx.openai.responses.create({ model: 'gemini-first', input: 'hi', stream: true });
    let text = '';
    const types = new Set<string>();
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('claude streams');
    expect(types.has('response.completed')).toBe(true);
    expect(types.has('error')).toBe(false);
  });

  test('a Gemini client falls back from an OpenAI target to an Anthropic one', async () => {
    await fx.gw.admin('POST', '/virtual-models', {
      name: 'openai-then-claude',
      targets: [
        { model: 'gpt-4o', priority: 2 },
        { model: 'claude-a', priority: 1 },
      ],
    });
    fx.upstream.script({ type: 'error', status: 429, message: 'Rate limit reached' });
    claude.script({ type: 'reply', text: 'claude for gemini' });
    const google = new GoogleGenAI({ apiKey: fx.key, httpOptions: { baseUrl: fx.gw.origin } });
    const reply = await google.models.generateContent({ model: 'openai-then-claude', contents: 'hi' });
    expect(reply.text).toBe('claude for gemini');
    expect(await lastRecord()).toMatchObject({ model: 'claude-a', requested_model: 'openai-then-claude' });
  });

  test('when every target fails, the client gets the last failure', async () => {
    claude.script({ type: 'error', status: 500, message: 'claude down' });
    gemini.script({ type: 'error', status: 503, message: 'gemini down' });
    fx.upstream.script({ type: 'error', status: 502, message: 'openai down' });
    const failed = (await chat('smart').catch((error: unknown) => error)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(failed.status).toBe(502);
    expect(failed.message).toContain('openai down');
    expect(failed.headers?.get('x-gateway-model')).toBe('gpt-4o');
    expect([claude.requests.length, gemini.requests.length, fx.upstream.requests.length]).toEqual([1, 1, 1]);
    const [record] = await fx.logs();
    expect(record).toMatchObject({ model: 'gpt-4o', requested_model: 'smart', cost: 0, status_code: 502 });
  });

  describe('proactive checks', () => {
    afterAll(async () => {
      await fx.gw.admin('DELETE', '/models/claude-a');
    });

    test('a request with tools never reaches a target known to lack them', async () => {
      await fx.gw.admin('PUT', '/models/claude-a', { capabilities: ['vision'] });
      const tools = [
        { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } },
      ];
      const { response } = await chat('smart', { tools });
      expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
      expect(claude.requests).toHaveLength(0);
      // Without tools, the same target takes it.
      expect((await chat('smart')).response.headers.get('x-gateway-model')).toBe('claude-a');
    });

    test("an input larger than a target's context window never reaches it", async () => {
      await fx.gw.admin('PUT', '/models/claude-a', { context_window: 200, capabilities: null });
      const long = 'All work and no play makes a long prompt. '.repeat(100);
      const { response } = await chat('smart', { messages: [{ role: 'user', content: long }] });
      expect(response.headers.get('x-gateway-model')).toBe('gemini-b');
      expect(claude.requests).toHaveLength(0);
      expect((await chat('smart')).response.headers.get('x-gateway-model')).toBe('claude-a');
    });

    test('when no target fits, nothing is called: 503 model_not_found', async () => {
      await fx.gw.admin('PUT', '/models/claude-a', { capabilities: [] });
      await fx.gw.admin('PUT', '/models/gemini-b', { capabilities: [] });
      await fx.gw.admin('PUT', '/models/gpt-4o', { capabilities: [] });
      try {
        const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
        await expect(chat('smart', { tools })).rejects.toMatchObject({
          status: 503,
          code: 'model_not_found',
        });
        expect([claude.requests.length, gemini.requests.length, fx.upstream.requests.length]).toEqual([
          0, 0, 0,
        ]);
      } finally {
        await fx.gw.admin('DELETE', '/models/gemini-b');
        await fx.gw.admin('DELETE', '/models/gpt-4o');
      }
    });
  });

  describe("the request's own models", () => {
    test('are tried in order after model, and never reach the upstream', async () => {
      fx.upstream.script({ type: 'error', status: 500, message: 'boom' });
      const { response } = await chat('gpt-4o-mini', { models: ['claude-unpriced', 'claude-a'] });
      expect(response.headers.get('x-gateway-model')).toBe('claude-a');
      expect(fx.upstream.requests[0]!.body).not.toHaveProperty('models');
      expect(claude.requests).toHaveLength(1);
      expect(claude.requests[0]!.body).not.toHaveProperty('models');
      expect(await lastRecord()).toMatchObject({ model: 'claude-a', requested_model: 'gpt-4o-mini' });
    });

    test("a passthrough forwards the client's bytes without the models member alone", async () => {
      const body =
        '{ "model" : "gpt-4o-mini",\n "models": ["claude-a"],\n "max_tokens": 16, "messages": [{"role":"user","content":"h\\u0069"}] }';
      const answer = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(200);
      expect(fx.upstream.requests[0]!.rawBody!.toString()).toBe(
        '{ "model" : "gpt-4o-mini",\n "max_tokens": 16, "messages": [{"role":"user","content":"h\\u0069"}] }',
      );
    });

    test("each must pass the key's Model Limits", async () => {
      const key = await fx.gw.admin('POST', '/keys', { user_id: fx.userId, model_limits: ['gpt-4o-mini'] });
      const limited = new OpenAI({ apiKey: key.body.key, baseURL: `${fx.gw.origin}/v1`, maxRetries: 0 });
      const refused = (await limited.chat.completions
        .create({ model: 'gpt-4o-mini', models: ['claude-a'], ...ask } as never)
        .catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('claude-a');
      expect(fx.upstream.requests).toHaveLength(0);
    });

    test('must be an array of model names', async () => {
      const refused = (await chat('gpt-4o-mini', { models: 'claude-a' }).catch(
        (error: unknown) => error,
      )) as InstanceType<typeof OpenAI.APIError>;
      expect(refused.status).toBe(400);
      expect(refused.message).toContain('models');
    });

    test('an unpriced entry is skipped: the failure of the last one called is the answer', async () => {
      fx.upstream.script({ type: 'error', status: 500, message: 'boom' });
      await expect(chat('gpt-4o-mini', { models: ['claude-unpriced'] })).rejects.toMatchObject({
        status: 500,
      });
      expect(claude.requests).toHaveLength(0);
    });
  });
});
