import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { expectAnthropicError, expectOpenAIError, send } from '../helpers/client-request.js';
import { addAnthropicChannel, startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * The members the gateway reads itself to decide what to do (stream, the usage chunk, choices,
 * output caps): a wrong type is a 400 `invalid_request` naming the member, refused on arrival,
 * before anything is reserved or sent upstream (client-api section 7).
 */

const GEMINI_KEY = 'gemini-upstream-key';

let fx: RelayFixture;
let anthropic: FakeUpstream;
let gemini: FakeUpstream;

beforeAll(async () => {
  fx = await startRelayFixture({ balance: 10 });
  anthropic = await addAnthropicChannel(fx);
  gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  await fx.gw.admin('POST', '/channels', {
    name: 'gemini',
    type: 'gemini',
    base_url: gemini.origin,
    keys: [GEMINI_KEY],
    models: ['gemini-2.5-flash'],
  });
  await fx.gw.admin('PUT', '/prices/gemini-2.5-flash', { input: 0.3, output: 2.5 });
});

afterAll(async () => {
  await fx?.close();
  await anthropic?.close();
  await gemini?.close();
});

beforeEach(() => {
  for (const fake of [fx.upstream, anthropic, gemini]) fake.clear();
});

const WRONG_BOOLEANS: unknown[] = [-1, 1.5, 1e308, 'yes', 'true', 0, 1, [], {}];
const WRONG_COUNTS: unknown[] = [-1, 1.5, 1e308, '100', true, [], {}];

const chat = (body: Record<string, unknown>) =>
  send(fx.gw.origin, '/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}` },
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body },
  });
const responses = (body: Record<string, unknown>) =>
  send(fx.gw.origin, '/v1/responses', {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.key}` },
    body: { model: 'gpt-4o', input: 'hi', ...body },
  });
const messages = (body: Record<string, unknown>) =>
  send(fx.gw.origin, '/v1/messages', {
    method: 'POST',
    headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
    body: {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      ...body,
    },
  });
const generateContent = (body: Record<string, unknown>) =>
  send(fx.gw.origin, '/v1beta/models/gemini-2.5-flash:generateContent', {
    method: 'POST',
    headers: { 'x-goog-api-key': fx.key },
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], ...body },
  });

/** Nothing reached any upstream and nothing was charged or held. */
async function expectNothingSent(balanceBefore: number): Promise<void> {
  expect(fx.upstream.requests).toHaveLength(0);
  expect(anthropic.requests).toHaveLength(0);
  expect(gemini.requests).toHaveLength(0);
  expect((await fx.user()).balance).toBe(balanceBefore);
}

describe('a stream flag that is not a boolean', () => {
  describe.each([
    ['chat completions', chat],
    ['responses', responses],
  ])('%s', (_name, post) => {
    it.each(WRONG_BOOLEANS)('refuses stream = %j', async (value) => {
      const before = (await fx.user()).balance;
      expectOpenAIError(await post({ stream: value }), {
        status: 400,
        code: 'invalid_request',
        param: 'stream',
        message: 'field stream must be a boolean',
      });
      await expectNothingSent(before);
    });
  });

  it.each(WRONG_BOOLEANS)('messages refuses stream = %j in the family B shape', async (value) => {
    const before = (await fx.user()).balance;
    expectAnthropicError(await messages({ stream: value }), {
      status: 400,
      type: 'invalid_request_error',
      message: 'field stream must be a boolean',
    });
    await expectNothingSent(before);
  });

  it('null is no stream, as the SDKs type it, on every endpoint', async () => {
    expect((await chat({ stream: null })).status).toBe(200);
    expect((await responses({ stream: null })).status).toBe(200);
    expect((await messages({ stream: null })).status).toBe(200);
  });

  it('false and true keep working', async () => {
    expect((await chat({ stream: false })).status).toBe(200);
    const streamed = await chat({ stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });
});

describe('the other members the gateway reads', () => {
  it.each([
    ['stream_options', 'yes', 'an object'],
    ['stream_options', [], 'an object'],
    ['n', 0, 'an integer between 1 and 128'],
    ['n', 1.5, 'an integer between 1 and 128'],
    ['n', '2', 'an integer between 1 and 128'],
    ['n', 129, 'an integer between 1 and 128'],
  ])('chat completions refuses %s = %j', async (field, value, expected) => {
    const before = (await fx.user()).balance;
    expectOpenAIError(await chat({ [field]: value }), {
      status: 400,
      code: 'invalid_request',
      param: field,
      message: `field ${field} must be ${expected}`,
    });
    await expectNothingSent(before);
  });

  it.each(WRONG_BOOLEANS)('chat completions refuses stream_options.include_usage = %j', async (value) => {
    expectOpenAIError(await chat({ stream: true, stream_options: { include_usage: value } }), {
      status: 400,
      code: 'invalid_request',
      param: 'stream_options.include_usage',
      message: 'field stream_options.include_usage must be a boolean',
    });
    expect(fx.upstream.requests).toHaveLength(0);
  });

  describe.each(WRONG_COUNTS)('an output cap of %j', (value) => {
    it.each(['max_tokens', 'max_completion_tokens'])('chat completions refuses it as %s', async (field) => {
      const before = (await fx.user()).balance;
      expectOpenAIError(await chat({ [field]: value }), {
        status: 400,
        code: 'invalid_request',
        param: field,
        message: `field ${field} must be a non-negative integer`,
      });
      await expectNothingSent(before);
    });

    it('responses refuses it as max_output_tokens', async () => {
      expectOpenAIError(await responses({ max_output_tokens: value }), {
        status: 400,
        code: 'invalid_request',
        param: 'max_output_tokens',
        message: 'field max_output_tokens must be a non-negative integer',
      });
      expect(fx.upstream.requests).toHaveLength(0);
    });

    it('messages refuses it as max_tokens, in the family B shape', async () => {
      expectAnthropicError(await messages({ max_tokens: value }), {
        status: 400,
        type: 'invalid_request_error',
        message: 'field max_tokens must be a non-negative integer',
      });
      expect(anthropic.requests).toHaveLength(0);
    });

    it('generateContent refuses it as generationConfig.maxOutputTokens', async () => {
      expectOpenAIError(await generateContent({ generationConfig: { maxOutputTokens: value } }), {
        status: 400,
        code: 'invalid_request',
        param: 'generationConfig.maxOutputTokens',
        message: 'field generationConfig.maxOutputTokens must be a non-negative integer',
      });
      expect(gemini.requests).toHaveLength(0);
    });
  });

  it('generateContent refuses a generationConfig that is not an object, and a wrong candidateCount', async () => {
    expectOpenAIError(await generateContent({ generationConfig: 'fast' }), {
      status: 400,
      code: 'invalid_request',
      param: 'generationConfig',
      message: 'field generationConfig must be an object',
    });
    expectOpenAIError(await generateContent({ generationConfig: { candidateCount: 0 } }), {
      status: 400,
      code: 'invalid_request',
      param: 'generationConfig.candidateCount',
      message: 'field generationConfig.candidateCount must be a positive integer',
    });
    expect(gemini.requests).toHaveLength(0);
    expect((await generateContent({ generationConfig: { maxOutputTokens: 32 } })).status).toBe(200);
  });

  it('answers in Chinese names the member the same way', async () => {
    const response = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.key}`, 'accept-language': 'zh-CN' },
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: 'yes' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^field stream must be a boolean \(request id: /);
  });
});

describe('choices in the pre-charge', () => {
  it('reserves the output cap once per choice asked for', async () => {
    // gpt-4o output costs 10 USD per million tokens: 1,000 tokens are 0.01 USD a choice.
    const user = await fx.gw.admin('POST', '/users', { username: 'few-cents', balance: 0.02 });
    const key = (await fx.gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
    const ask = (n: number) =>
      send(fx.gw.origin, '/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000, n },
      });
    expect((await ask(1)).status).toBe(200);
    const refused = await ask(4);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_user_quota');
    expect(refused.body.error.message).toMatch(/需要预扣费额度: \$0\.04/);
  });
});
