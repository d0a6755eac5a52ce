import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConsolePage } from '../../src/http/console-page.js';
import {
  bearer,
  expectAnthropicError,
  expectOpenAIError,
  send,
  sendChunked,
  type ClientRequest,
  type ClientResponse,
  type ExpectedError,
} from '../helpers/client-request.js';
import { seedChannel, seedPrice, seedUserWithKey, updateSettings } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** Client-api 4.10 and the request checks of sections 4.5, 4.6 and 7 that need no upstream. */

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  gw = await startTestGateway();
  await seedChannel(gw, {
    type: 'openai',
    models: [
      'gpt-4o',
      'gpt-unpriced',
      'gpt-image-1',
      'text-embedding-3-small',
      'tts-1',
      'sora-2',
      'rerank-v1',
    ],
  });
  await seedChannel(gw, {
    type: 'openai',
    models: ['gpt-image-1', 'gpt-unpriced'],
    endpoints: ['image-generation'],
  });
  await seedChannel(gw, { type: 'anthropic', models: ['claude-sonnet-4-5'] });
  await seedChannel(gw, { type: 'gemini', models: ['gemini-2.5-pro', 'gemini-embedding-001'] });
  for (const model of ['gpt-4o', 'gpt-image-1', 'text-embedding-3-small', 'tts-1', 'sora-2', 'rerank-v1']) {
    await seedPrice(gw, model, 1);
  }
  await seedPrice(gw, 'claude-sonnet-4-5', 3);
  await seedPrice(gw, 'gemini-2.5-pro', 1.25);
  await seedPrice(gw, 'gemini-embedding-001', 0.15);
  ({ key } = await seedUserWithKey(gw));
});

afterAll(async () => {
  await gw?.close();
});

const call = (path: string, options?: ClientRequest) => send(gw.origin, path, options);
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, { method: 'POST', headers: { ...bearer(key), ...headers }, body });
const userMessage = [{ role: 'user', content: 'hi' }];
const zh = { 'accept-language': 'zh-CN,zh;q=0.9' };

const noChannel = (model: string, group = 'default'): ExpectedError => ({
  status: 503,
  message: `No available channel for model ${model} under group ${group} (distributor)`,
  code: 'model_not_found',
});
const modelMissing: ExpectedError = {
  status: 400,
  message: 'Model name not specified, model name cannot be empty',
};

function jsonParseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`valid JSON: ${text}`);
}

/** The four relaying endpoints the body checks apply to, each with a complete valid body for a model. */
interface RelayTarget {
  name: string;
  /** The request for `model`, with extra body fields merged in. */
  request(
    model: string,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<ClientResponse>;
  /** A complete body besides the model. */
  complete: Record<string, unknown>;
  requiredField: string | undefined;
  familyB: boolean;
}

const relayTargets: RelayTarget[] = [
  {
    name: 'POST /v1/chat/completions',
    request: (model, body, headers) => post('/v1/chat/completions', { model, ...body }, headers),
    complete: { messages: userMessage },
    requiredField: 'messages',
    familyB: false,
  },
  {
    name: 'POST /v1/responses',
    request: (model, body, headers) => post('/v1/responses', { model, ...body }, headers),
    complete: { input: 'hi' },
    requiredField: undefined,
    familyB: false,
  },
  {
    name: 'POST /v1/messages',
    request: (model, body, headers) =>
      call('/v1/messages', {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', ...headers },
        body: { model, ...body },
      }),
    complete: { messages: userMessage, max_tokens: 64 },
    requiredField: 'messages',
    familyB: true,
  },
  {
    name: 'POST /v1beta/models/{model}:generateContent',
    request: (model, body, headers) =>
      call(`/v1beta/models/${model}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key, ...headers },
        body,
      }),
    complete: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    requiredField: 'contents',
    familyB: false,
  },
];

describe('unsupported endpoints (client-api 4.10)', () => {
  it('POST /v1/messages/count_tokens: 404 Invalid URL, with or without a key', async () => {
    const keyed: Record<string, string> = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
    for (const headers of [keyed, {}]) {
      const response = await call('/v1/messages/count_tokens', {
        method: 'POST',
        headers,
        body: { model: 'claude-sonnet-4-5', messages: userMessage },
      });
      expectOpenAIError(response, {
        status: 404,
        message: 'Invalid URL (POST /v1/messages/count_tokens)',
        type: 'invalid_request_error',
      });
    }
  });

  it('POST /v1beta/models/{model}:countTokens: 404 Invalid URL', async () => {
    const response = await call(`/v1beta/models/gemini-2.5-pro:countTokens?key=${key}`, {
      method: 'POST',
      body: { contents: [{ parts: [{ text: 'hi' }] }] },
    });
    expectOpenAIError(response, {
      status: 404,
      message: 'Invalid URL (POST /v1beta/models/gemini-2.5-pro:countTokens)',
      type: 'invalid_request_error',
    });
    expectOpenAIError(await call('/v1beta/models/gemini-2.5-pro:countTokens', { method: 'POST', body: {} }), {
      status: 404,
      message: 'Invalid URL (POST /v1beta/models/gemini-2.5-pro:countTokens)',
      type: 'invalid_request_error',
    });
  });

  const modelless: [string, string][] = [
    ['GET', '/v1/files'],
    ['POST', '/v1/files'],
    ['GET', '/v1/files/file-abc123'],
    ['DELETE', '/v1/files/file-abc123'],
    ['GET', '/v1/files/file-abc123/content'],
    ['GET', '/v1/fine-tunes'],
    ['POST', '/v1/fine-tunes'],
    ['GET', '/v1/fine-tunes/ft-abc123'],
    ['POST', '/v1/fine-tunes/ft-abc123/cancel'],
    ['POST', '/v1/images/variations'],
  ];
  for (const [method, path] of modelless) {
    it(`${method} ${path}: 400 model name not specified once authenticated, 401 before`, async () => {
      const body = method === 'POST' ? { model: 'gpt-4o', image: 'x' } : undefined;
      expectOpenAIError(await call(path, { method, headers: bearer(key), body }), modelMissing);
      expectOpenAIError(await call(path, { method, headers: { ...bearer(key), ...zh }, body }), {
        ...modelMissing,
        message: '未指定模型名称,模型名称不能为空',
      });
      expectOpenAIError(await call(path, { method, body }), { status: 401, message: 'Invalid token' });
    });
  }

  const unlisted: [string, string][] = [
    ['POST', '/v1/completions'],
    ['POST', '/v1/moderations'],
    ['POST', '/v1/edits'],
    ['GET', '/v1/chat/completions'],
    ['GET', '/v1/messages'],
    ['GET', '/v1/responses'],
    ['POST', '/v1/assistants'],
    ['POST', '/v1/threads/thread-1/runs'],
    ['GET', '/v1/batches'],
    ['POST', '/v1/fine_tuning/jobs'],
    ['DELETE', '/v1/models/gpt-4o'],
    ['POST', '/v1/models'],
    ['GET', '/v1'],
    ['PUT', '/v1/chat/completions'],
    ['POST', '/v1/images/edits'],
    ['GET', '/v1beta/models/gemini-2.5-pro:generateContent'],
    ['POST', '/v1beta/models/gemini-2.5-pro:predict'],
    ['POST', '/v1beta/models/gemini-2.5-pro'],
    ['GET', '/v1/models%zz'],
    ['POST', '/v1/chat/completions%'],
  ];
  for (const [method, path] of unlisted) {
    it(`${method} ${path}: 404 Invalid URL (${method} ${path})`, async () => {
      const response = await call(path, {
        method,
        headers: bearer(key),
        body: method === 'GET' || method === 'DELETE' ? undefined : { model: 'gpt-4o' },
      });
      expectOpenAIError(response, {
        status: 404,
        message: `Invalid URL (${method} ${path})`,
        type: 'invalid_request_error',
      });
    });
  }

  const unserved: [string, unknown, string][] = [
    ['/v1/embeddings', { model: 'text-embedding-3-small', input: 'hi' }, 'text-embedding-3-small'],
    ['/v1/rerank', { model: 'rerank-v1', query: 'q', documents: ['a'] }, 'rerank-v1'],
    ['/v1/audio/speech', { model: 'tts-1', input: 'hi', voice: 'alloy' }, 'tts-1'],
    ['/v1/video/generations', { model: 'sora-2', prompt: 'a cat' }, 'sora-2'],
    ['/v1/videos', { model: 'sora-2', prompt: 'a cat' }, 'sora-2'],
  ];
  for (const [path, body, model] of unserved) {
    it(`POST ${path}: 503 no channel though a channel lists the model`, async () => {
      expectOpenAIError(await post(path, body), noChannel(model));
      expectOpenAIError(await post(path, body, zh), {
        ...noChannel(model),
        message: `分组 default 下模型 ${model} 无可用渠道(distributor)`,
      });
    });
  }

  it('Gemini embedContent and batchEmbedContents: 503 no channel', async () => {
    for (const method of ['embedContent', 'batchEmbedContents']) {
      const response = await call(`/v1beta/models/gemini-embedding-001:${method}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key },
        body: { content: { parts: [{ text: 'hi' }] } },
      });
      expectOpenAIError(response, noChannel('gemini-embedding-001'));
    }
  });
});

describe('request body errors that need no upstream', () => {
  for (const target of relayTargets) {
    describe(target.name, () => {
      it('a missing or empty model: 400, in both languages, family A', async () => {
        const cases: [string, Record<string, unknown>][] = target.name.includes('generateContent')
          ? [['', target.complete]]
          : [
              ['', target.complete],
              ['   ', target.complete],
            ];
        for (const [model, body] of cases) {
          expectOpenAIError(await target.request(model, body), modelMissing);
          expectOpenAIError(await target.request(model, body, zh), {
            ...modelMissing,
            message: '未指定模型名称,模型名称不能为空',
          });
        }
        if (!target.name.includes('generateContent')) {
          const path = target.name.slice('POST '.length);
          const headers = target.familyB ? { 'x-api-key': key } : bearer(key);
          expectOpenAIError(
            await call(path, { method: 'POST', headers, body: target.complete }),
            modelMissing,
          );
          expectOpenAIError(
            await call(path, { method: 'POST', headers, body: { ...target.complete, model: 42 } }),
            modelMissing,
          );
        }
      });

      it('invalid JSON: 400 with code "", in both languages, family A', async () => {
        const path = target.name.includes('generateContent')
          ? '/v1beta/models/gemini-2.5-pro:generateContent'
          : target.name.slice('POST '.length);
        const headers: Record<string, string> = target.name.includes('generateContent')
          ? { 'x-goog-api-key': key }
          : target.familyB
            ? { 'x-api-key': key, 'anthropic-version': '2023-06-01' }
            : bearer(key);
        for (const text of ['{"model": "gpt-4o", "messages": [', 'not json', '{"model": "gpt-4o",}']) {
          const detail = jsonParseError(text);
          expectOpenAIError(await call(path, { method: 'POST', headers, body: text }), {
            status: 400,
            message: `Invalid request: ${detail}, invalid JSON request body`,
          });
          expectOpenAIError(
            await call(path, { method: 'POST', headers: { ...headers, ...zh }, body: text }),
            {
              status: 400,
              message: `无效的请求, ${detail}, invalid JSON request body`,
            },
          );
        }
        expectOpenAIError(await call(path, { method: 'POST', headers, body: '' }), {
          status: 400,
          message: 'Invalid request: empty request body, invalid JSON request body',
        });
        expectOpenAIError(await call(path, { method: 'POST', headers, body: '[{"model":"gpt-4o"}]' }), {
          status: 400,
          message: 'Invalid request: the body must be a JSON object, invalid JSON request body',
        });
      });

      if (target.requiredField) {
        it(`field ${target.requiredField} is required: 400 invalid_request`, async () => {
          const model = target.familyB ? 'claude-sonnet-4-5' : 'gpt-4o';
          const response = await target.request(model, {});
          const message = `field ${target.requiredField} is required`;
          if (target.familyB) {
            expectAnthropicError(response, { status: 400, type: 'invalid_request_error', message });
          } else {
            expectOpenAIError(response, { status: 400, message, code: 'invalid_request' });
          }
        });
      }

      it('bad @ modifiers: 400 convert_request_failed', async () => {
        const cases: [string, string][] = [
          ['gpt-4o@foo=high', 'unsupported model modifier "foo"'],
          ['gpt-4o@reasoning=low', 'unsupported model modifier "reasoning"'],
          ['gpt-4o@extreme', 'invalid effort modifier value "extreme"'],
          ['gpt-4o@effort=extreme', 'invalid effort modifier value "extreme"'],
          ['gpt-4o@HIGH', 'invalid effort modifier value "HIGH"'],
          ['no-such-model@extreme', 'invalid effort modifier value "extreme"'],
        ];
        for (const [model, message] of cases) {
          expectOpenAIError(await target.request(model, target.complete), {
            status: 400,
            message,
            code: 'convert_request_failed',
          });
        }
      });

      it('valid @ modifiers are accepted and stripped before routing and pricing', async () => {
        const priceMessage =
          'The price of model gpt-unpriced has not been configured by the administrator yet, so the model is not open for use';
        for (const effort of ['none', 'minimal', 'low', 'medium', 'high', 'xhigh']) {
          for (const modifier of [`@${effort}`, `@effort=${effort}`]) {
            // Pricing sees the bare name: the price error names it.
            const unpriced = await target.request(`gpt-unpriced${modifier}`, target.complete);
            if (target.familyB) {
              expectAnthropicError(unpriced, {
                status: 403,
                type: 'permission_error',
                message: priceMessage,
              });
            } else {
              expectOpenAIError(unpriced, { status: 403, message: priceMessage, code: 'model_price_error' });
            }
            // Routing sees the bare name: the no-channel error names it.
            expectOpenAIError(
              await target.request(`no-such-model${modifier}`, target.complete),
              noChannel('no-such-model'),
            );
          }
        }
        if (target.requiredField) {
          // gpt-4o has a channel, so the modified name is routed and the body check is reached.
          const response = await target.request('gpt-4o@high', {});
          const message = `field ${target.requiredField} is required`;
          if (target.familyB) {
            expectAnthropicError(response, { status: 400, type: 'invalid_request_error', message });
          } else {
            expectOpenAIError(response, { status: 400, message, code: 'invalid_request' });
          }
        }
      });

      it('an unpriced model: model_price_error, in both languages', async () => {
        const english = await target.request('gpt-unpriced', target.complete);
        const chinese = await target.request('gpt-unpriced', target.complete, zh);
        const en =
          'The price of model gpt-unpriced has not been configured by the administrator yet, so the model is not open for use';
        const cn = '模型 gpt-unpriced 的价格尚未由管理员配置, 暂不可使用';
        if (target.familyB) {
          expectAnthropicError(english, { status: 403, type: 'permission_error', message: en });
          expectAnthropicError(chinese, { status: 403, type: 'permission_error', message: cn });
        } else {
          expectOpenAIError(english, { status: 403, message: en, code: 'model_price_error' });
          expectOpenAIError(chinese, { status: 403, message: cn, code: 'model_price_error' });
        }
        expect(chinese.body.error.message.startsWith('模型 gpt-unpriced 的价格尚未由管理员配置')).toBe(true);
      });

      it('an unknown model: 503 model_not_found naming the group, in both languages', async () => {
        for (const model of ['no-such-model', 'GPT-4o', 'gpt4o', 'gpt-4o-', 'gpt 4o']) {
          expectOpenAIError(
            await target.request(encodeForPath(target, model), target.complete),
            noChannel(model),
          );
        }
        expectOpenAIError(await target.request('no-such-model', target.complete, zh), {
          ...noChannel('no-such-model'),
          message: '分组 default 下模型 no-such-model 无可用渠道(distributor)',
        });
      });

      it('a priced model with a channel passes every check and is never a 200', async () => {
        // Every seeded channel points at a closed port: whatever the protocols on both sides, the
        // request is relayed and fails at the upstream (502), in the endpoint's own shape by then.
        for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-pro']) {
          const response = await target.request(model, target.complete);
          expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
          expect(response.status).toBe(502);
          const message = expect.stringMatching(
            new RegExp(`^upstream request failed: .+ \\(request id: ${response.requestId}\\)$`),
          );
          expect(response.body).toEqual(
            target.name === 'POST /v1/messages'
              ? { type: 'error', error: { type: 'api_error', message } }
              : { error: { message, type: 'gateway_api_error', param: '', code: 'upstream_error' } },
          );
        }
      });
    });
  }

  it("the group in the message is the key's, which overrides the user's", async () => {
    const { key: vipKey } = await seedUserWithKey(gw, { user: { group: 'vip' } });
    const { key: overridden } = await seedUserWithKey(gw, {
      user: { group: 'default' },
      key: { group: 'vip' },
    });
    const { key: backToDefault } = await seedUserWithKey(gw, {
      user: { group: 'vip' },
      key: { group: 'default' },
    });
    const chat = (apiKey: string, model: string, headers: Record<string, string> = {}) =>
      call('/v1/chat/completions', {
        method: 'POST',
        headers: { ...bearer(apiKey), ...headers },
        body: { model, messages: userMessage },
      });
    // No channel of group vip serves gpt-4o.
    expectOpenAIError(await chat(vipKey, 'gpt-4o'), noChannel('gpt-4o', 'vip'));
    expectOpenAIError(await chat(overridden, 'gpt-4o'), noChannel('gpt-4o', 'vip'));
    expectOpenAIError(await chat(overridden, 'gpt-4o', zh), {
      ...noChannel('gpt-4o', 'vip'),
      message: '分组 vip 下模型 gpt-4o 无可用渠道(distributor)',
    });
    // In group default it is routed, so the missing field is reached.
    expectOpenAIError(
      await call('/v1/chat/completions', {
        method: 'POST',
        headers: bearer(backToDefault),
        body: { model: 'gpt-4o' },
      }),
      { status: 400, message: 'field messages is required', code: 'invalid_request' },
    );
  });

  it('streamGenerateContent has the same checks as generateContent', async () => {
    const stream = (model: string, body: unknown) =>
      call(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key },
        body,
      });
    expectOpenAIError(await stream('gemini-2.5-pro', {}), {
      status: 400,
      message: 'field contents is required',
      code: 'invalid_request',
    });
    expectOpenAIError(await stream('', { contents: [] }), modelMissing);
    expectOpenAIError(await stream('no-such-model', { contents: [] }), noChannel('no-such-model'));
  });
});

function encodeForPath(target: RelayTarget, model: string): string {
  return target.name.includes('generateContent') ? encodeURIComponent(model) : model;
}

describe('image generation n (client-api 4.6)', () => {
  const images = (body: Record<string, unknown>, model = 'gpt-image-1') =>
    post('/v1/images/generations', { model, prompt: 'a cat', ...body });

  it('outside 1..128 or not an integer: 400 invalid_request', async () => {
    for (const n of [0, -1, 129, 1000, 1.5, '2', true]) {
      expectOpenAIError(await images({ n }), {
        status: 400,
        message: 'n must be an integer between 1 and 128',
        code: 'invalid_request',
      });
    }
  });

  it('1, 128 or absent pass the check', async () => {
    // The price check comes after the body check: an unpriced model shows the body passed.
    for (const body of [{ n: 1 }, { n: 128 }, {}]) {
      expectOpenAIError(await images(body, 'gpt-unpriced'), {
        status: 403,
        message:
          'The price of model gpt-unpriced has not been configured by the administrator yet, so the model is not open for use',
        code: 'model_price_error',
      });
    }
  });
});

describe('body size limit (body_limit_bytes)', () => {
  const limit = 2048;
  beforeAll(async () => {
    await updateSettings(gw, { body_limit_bytes: limit });
  });
  afterAll(async () => {
    await updateSettings(gw, { body_limit_bytes: 134_217_728 });
  });

  /** A chat body of exactly `size` bytes. */
  function chatBodyOfSize(size: number, model = 'gpt-4o'): Buffer {
    const empty = JSON.stringify({ model, messages: [{ role: 'user', content: '' }] });
    const text = JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'x'.repeat(size - empty.length) }],
    });
    expect(Buffer.byteLength(text)).toBe(size);
    return Buffer.from(text);
  }

  const tooLarge: ExpectedError = {
    status: 413,
    message: `Request body too large (limit ${limit} bytes)`,
    code: 'request_body_too_large',
  };

  it('over the limit with a Content-Length: 413, family A', async () => {
    expectOpenAIError(await post('/v1/chat/completions', chatBodyOfSize(limit + 1)), tooLarge);
    expectOpenAIError(await post('/v1/chat/completions', chatBodyOfSize(limit * 4)), tooLarge);
  });

  it('over the limit chunked: 413, family A', async () => {
    const body = chatBodyOfSize(limit * 3);
    const chunks = [body.subarray(0, 1000), body.subarray(1000, 2000), body.subarray(2000)];
    const response = await sendChunked(gw.origin, '/v1/chat/completions', { headers: bearer(key), chunks });
    expectOpenAIError(response, tooLarge);
  });

  it('chunked under the limit is read whole', async () => {
    const body = chatBodyOfSize(limit, 'no-such-model');
    const chunks = [body.subarray(0, 700), body.subarray(700, 1400), body.subarray(1400)];
    const response = await sendChunked(gw.origin, '/v1/chat/completions', { headers: bearer(key), chunks });
    expectOpenAIError(response, noChannel('no-such-model'));
  });

  it('exactly at the limit passes', async () => {
    expectOpenAIError(
      await post('/v1/chat/completions', chatBodyOfSize(limit, 'no-such-model')),
      noChannel('no-such-model'),
    );
  });

  it('on /v1/messages and Gemini too, in the family A shape', async () => {
    const messages = await call('/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: chatBodyOfSize(limit + 100, 'claude-sonnet-4-5'),
    });
    expectOpenAIError(messages, tooLarge);
    const gemini = await call('/v1beta/models/gemini-2.5-pro:generateContent', {
      method: 'POST',
      headers: { 'x-goog-api-key': key },
      body: chatBodyOfSize(limit + 100),
    });
    expectOpenAIError(gemini, tooLarge);
  });
});

describe('non-API paths serve the web page', () => {
  const page = loadConsolePage();
  for (const [method, path] of [
    ['GET', '/'],
    ['GET', '/console/x'],
    ['GET', '/models'],
    ['POST', '/chat/completions'],
    ['POST', '/messages'],
    ['GET', '/v1beta-not'],
    ['GET', '/console/%zz'],
  ] as const) {
    it(`${method} ${path}: 200 text/html`, async () => {
      const response = await call(path, {
        method,
        headers: bearer(key),
        body: method === 'POST' ? { model: 'gpt-4o', messages: userMessage } : undefined,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.text).toBe(page);
      expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
    });
  }
});
