import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  expectAnthropicError,
  expectOpenAIError,
  send,
  type ClientRequest,
  type ClientResponse,
} from '../helpers/client-request.js';
import { seedChannel, seedPrice, seedUserWithKey, updateSettings } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** Client-api section 7: the two error shapes, both languages, and the request id on every response. */

let gw: TestGateway;
let key: string;
let zhUserKey: string;
let enUserKey: string;

beforeAll(async () => {
  gw = await startTestGateway();
  await seedChannel(gw, { type: 'anthropic', models: ['claude-sonnet-4-5', 'claude-unpriced'] });
  await seedChannel(gw, { type: 'openai', models: ['gpt-4o'] });
  await seedChannel(gw, { type: 'openai', models: ['gpt-image-1'], endpoints: ['image-generation'] });
  await seedPrice(gw, 'claude-sonnet-4-5', 3);
  await seedPrice(gw, 'gpt-4o', 2.5);
  await seedPrice(gw, 'gpt-image-1', 5);
  ({ key } = await seedUserWithKey(gw, { key: { modelLimits: null } }));
  ({ key: zhUserKey } = await seedUserWithKey(gw, { user: { language: 'zh-CN' } }));
  ({ key: enUserKey } = await seedUserWithKey(gw, { user: { language: 'en' } }));
});

afterAll(async () => {
  await gw?.close();
});

const call = (path: string, options?: ClientRequest) => send(gw.origin, path, options);
const anthropicHeaders = (apiKey: string) => ({ 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' });
const userMessage = [{ role: 'user', content: 'hi' }];

/** What `JSON.parse` says about a text on this runtime: the detail the invalid-JSON message carries. */
function jsonParseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`valid JSON: ${text}`);
}

describe('family A and family B shapes on /v1/messages', () => {
  const messages = (body: unknown, headers: Record<string, string> = anthropicHeaders(key)) =>
    call('/v1/messages', { method: 'POST', headers, body });

  it('authentication errors are family A', async () => {
    expectOpenAIError(await messages({ model: 'claude-sonnet-4-5' }, { 'anthropic-version': '2023-06-01' }), {
      status: 401,
      message: 'Invalid token',
    });
    expectOpenAIError(await messages({ model: 'claude-sonnet-4-5' }, anthropicHeaders('sk-wrong')), {
      status: 401,
      message: 'Invalid token',
    });
  });

  it('Model Limits errors are family A', async () => {
    const { key: limited } = await seedUserWithKey(gw, { key: { modelLimits: ['gpt-4o'] } });
    expectOpenAIError(
      await messages({ model: 'claude-sonnet-4-5', messages: userMessage }, anthropicHeaders(limited)),
      {
        status: 403,
        message: 'This token has no access to model claude-sonnet-4-5',
      },
    );
  });

  it('invalid JSON and a missing model are family A', async () => {
    const text = '{"model": "claude-sonnet-4-5",';
    expectOpenAIError(await messages(text), {
      status: 400,
      message: `Invalid request: ${jsonParseError(text)}, invalid JSON request body`,
    });
    expectOpenAIError(await messages({ messages: userMessage, max_tokens: 16 }), {
      status: 400,
      message: 'Model name not specified, model name cannot be empty',
    });
  });

  it('a model without a channel is family A', async () => {
    expectOpenAIError(await messages({ model: 'claude-nope', messages: userMessage, max_tokens: 16 }), {
      status: 503,
      message: 'No available channel for model claude-nope under group default (distributor)',
      code: 'model_not_found',
    });
  });

  it('an upstream that cannot be reached, after model selection: 502 family B', async () => {
    const response = await messages({ model: 'claude-sonnet-4-5', messages: userMessage, max_tokens: 16 });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      type: 'error',
      error: {
        type: 'api_error',
        message: expect.stringMatching(
          new RegExp(`^upstream request failed: .+ \\(request id: ${response.requestId}\\)$`),
        ),
      },
    });
  });

  it('a missing messages field is family B', async () => {
    expectAnthropicError(await messages({ model: 'claude-sonnet-4-5', max_tokens: 16 }), {
      status: 400,
      type: 'invalid_request_error',
      message: 'field messages is required',
    });
  });

  it('an unpriced model is family B, in both languages', async () => {
    expectAnthropicError(
      await messages({ model: 'claude-unpriced', messages: userMessage, max_tokens: 16 }),
      {
        status: 403,
        type: 'permission_error',
        message:
          'The price of model claude-unpriced has not been configured by the administrator yet, so the model is not open for use',
      },
    );
    expectAnthropicError(
      await messages(
        { model: 'claude-unpriced', messages: userMessage, max_tokens: 16 },
        { ...anthropicHeaders(key), 'accept-language': 'zh-CN,zh;q=0.9' },
      ),
      {
        status: 403,
        type: 'permission_error',
        message: '模型 claude-unpriced 的价格尚未由管理员配置, 暂不可使用',
      },
    );
  });

  it('the same errors on chat completions stay family A', async () => {
    const chat = (body: unknown) =>
      call('/v1/chat/completions', { method: 'POST', headers: bearer(key), body });
    expectOpenAIError(await chat({ model: 'claude-sonnet-4-5' }), {
      status: 400,
      message: 'field messages is required',
      code: 'invalid_request',
    });
    expectOpenAIError(await chat({ model: 'claude-unpriced', messages: userMessage }), {
      status: 403,
      message:
        'The price of model claude-unpriced has not been configured by the administrator yet, so the model is not open for use',
      code: 'model_price_error',
    });
  });
});

interface ErrorCase {
  name: string;
  path: string;
  request: (apiKey: string) => ClientRequest;
  status: number;
  code: string;
  type?: string;
  en: string;
  zh: string;
}

const chatBody = (body: unknown) => (apiKey: string) => ({ method: 'POST', headers: bearer(apiKey), body });

/** Every message the client-facing API can produce without an upstream, in English and Chinese. */
const errorCases: ErrorCase[] = [
  {
    name: 'model not allowed',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'gpt-4o', messages: userMessage }),
    status: 403,
    code: '',
    en: 'This token has no access to model gpt-4o',
    zh: '该令牌无权访问模型 gpt-4o',
  },
  {
    name: 'model missing',
    path: '/v1/chat/completions',
    request: chatBody({ messages: userMessage }),
    status: 400,
    code: '',
    en: 'Model name not specified, model name cannot be empty',
    zh: '未指定模型名称,模型名称不能为空',
  },
  {
    name: 'invalid JSON',
    path: '/v1/chat/completions',
    request: chatBody('{oops'),
    status: 400,
    code: '',
    en: `Invalid request: ${jsonParseError('{oops')}, invalid JSON request body`,
    zh: `无效的请求, ${jsonParseError('{oops')}, invalid JSON request body`,
  },
  {
    name: 'no channel',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'claude-opus-x', messages: userMessage }),
    status: 503,
    code: 'model_not_found',
    en: 'No available channel for model claude-opus-x under group default (distributor)',
    zh: '分组 default 下模型 claude-opus-x 无可用渠道(distributor)',
  },
  {
    name: 'unpriced model',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'claude-unpriced', messages: userMessage }),
    status: 403,
    code: 'model_price_error',
    en: 'The price of model claude-unpriced has not been configured by the administrator yet, so the model is not open for use',
    zh: '模型 claude-unpriced 的价格尚未由管理员配置, 暂不可使用',
  },
  {
    name: 'required field',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'claude-sonnet-4-5' }),
    status: 400,
    code: 'invalid_request',
    en: 'field messages is required',
    zh: 'field messages is required',
  },
  {
    name: 'image count',
    path: '/v1/images/generations',
    request: chatBody({ model: 'gpt-image-1', prompt: 'a cat', n: 0 }),
    status: 400,
    code: 'invalid_request',
    en: 'n must be an integer between 1 and 128',
    zh: 'n must be an integer between 1 and 128',
  },
  {
    name: 'unsupported modifier',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'claude-sonnet-4-5@foo=high', messages: userMessage }),
    status: 400,
    code: 'convert_request_failed',
    en: 'unsupported model modifier "foo"',
    zh: 'unsupported model modifier "foo"',
  },
  {
    name: 'invalid effort',
    path: '/v1/chat/completions',
    request: chatBody({ model: 'claude-sonnet-4-5@extreme', messages: userMessage }),
    status: 400,
    code: 'convert_request_failed',
    en: 'invalid effort modifier value "extreme"',
    zh: 'invalid effort modifier value "extreme"',
  },
  {
    name: 'unknown URL',
    path: '/v1/not-a-thing',
    request: chatBody({}),
    status: 404,
    code: '',
    type: 'invalid_request_error',
    en: 'Invalid URL (POST /v1/not-a-thing)',
    zh: 'Invalid URL (POST /v1/not-a-thing)',
  },
  {
    name: 'channel pin by a regular user',
    path: '/v1/chat/completions',
    request: (apiKey) => chatBody({ model: 'gpt-4o', messages: userMessage })(`${apiKey}-1`),
    status: 403,
    code: '',
    en: '普通用户不支持指定渠道',
    zh: '普通用户不支持指定渠道',
  },
];

describe('every message in English and Chinese', () => {
  let limitedKey: string;
  beforeAll(async () => {
    ({ key: limitedKey } = await seedUserWithKey(gw, {
      key: { modelLimits: ['claude-sonnet-4-5', 'claude-unpriced', 'claude-opus-x', 'gpt-image-1'] },
    }));
  });

  for (const errorCase of errorCases) {
    const request = (headers: Record<string, string>) => {
      const options = errorCase.request(limitedKey);
      return call(errorCase.path, { ...options, headers: { ...options.headers, ...headers } });
    };
    const expected = (message: string) => ({
      status: errorCase.status,
      message,
      code: errorCase.code,
      ...(errorCase.type && { type: errorCase.type }),
    });

    it(`${errorCase.name}: English by default`, async () => {
      expectOpenAIError(await request({}), expected(errorCase.en));
    });
    it(`${errorCase.name}: Chinese with Accept-Language zh-CN,zh;q=0.9`, async () => {
      expectOpenAIError(await request({ 'accept-language': 'zh-CN,zh;q=0.9' }), expected(errorCase.zh));
    });
  }

  it('invalid token: 无效的令牌', async () => {
    expectOpenAIError(await call('/v1/models', { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } }), {
      status: 401,
      message: '无效的令牌',
    });
  });

  it('IP not allowed: Chinese in both', async () => {
    const { key: fenced } = await seedUserWithKey(gw, { key: { ipAllowList: ['10.1.2.3'] } });
    for (const language of ['en', 'zh-CN']) {
      expectOpenAIError(
        await call('/v1/models', { headers: { ...bearer(fenced), 'accept-language': language } }),
        {
          status: 403,
          message: '您的 IP 不在令牌允许访问的列表中',
          code: 'access_denied',
        },
      );
    }
  });

  it('body too large: English in both', async () => {
    await updateSettings(gw, { body_limit_bytes: 1024 });
    try {
      for (const language of ['en', 'zh-CN']) {
        const response = await call('/v1/chat/completions', {
          method: 'POST',
          headers: { ...bearer(key), 'accept-language': language },
          body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(2000) }] },
        });
        expectOpenAIError(response, {
          status: 413,
          message: 'Request body too large (limit 1024 bytes)',
          code: 'request_body_too_large',
        });
      }
    } finally {
      await updateSettings(gw, { body_limit_bytes: 134_217_728 });
    }
  });
});

describe('language: account first, then Accept-Language, else English', () => {
  const noChannel = (apiKey: string, headers: Record<string, string> = {}) =>
    call('/v1/chat/completions', {
      method: 'POST',
      headers: { ...bearer(apiKey), ...headers },
      body: { model: 'm-x', messages: userMessage },
    });
  const english = {
    status: 503,
    code: 'model_not_found',
    message: 'No available channel for model m-x under group default (distributor)',
  };
  const chinese = { ...english, message: '分组 default 下模型 m-x 无可用渠道(distributor)' };

  it("the account's saved language wins over Accept-Language", async () => {
    expectOpenAIError(await noChannel(zhUserKey), chinese);
    expectOpenAIError(await noChannel(zhUserKey, { 'accept-language': 'en-US,en;q=0.9' }), chinese);
    expectOpenAIError(await noChannel(enUserKey, { 'accept-language': 'zh-CN,zh;q=0.9' }), english);
  });

  it('the saved language applies to errors raised once the key is known, also on /v1/messages and Gemini', async () => {
    expectOpenAIError(
      await call('/v1/messages', {
        method: 'POST',
        headers: anthropicHeaders(zhUserKey),
        body: { messages: userMessage },
      }),
      { status: 400, message: '未指定模型名称,模型名称不能为空' },
    );
    expectAnthropicError(
      await call('/v1/messages', {
        method: 'POST',
        headers: anthropicHeaders(zhUserKey),
        body: { model: 'claude-unpriced', messages: userMessage },
      }),
      {
        status: 403,
        type: 'permission_error',
        message: '模型 claude-unpriced 的价格尚未由管理员配置, 暂不可使用',
      },
    );
    expectOpenAIError(
      await call('/v1beta/models/m-x:generateContent', {
        method: 'POST',
        headers: { 'x-goog-api-key': zhUserKey },
        body: { contents: [] },
      }),
      chinese,
    );
  });

  it('without a saved language, Accept-Language decides by quality', async () => {
    expectOpenAIError(await noChannel(key, { 'accept-language': 'zh-CN,zh;q=0.9' }), chinese);
    expectOpenAIError(await noChannel(key, { 'accept-language': 'zh' }), chinese);
    expectOpenAIError(await noChannel(key, { 'accept-language': 'en-US,en;q=0.9,zh-CN;q=0.8' }), english);
    expectOpenAIError(await noChannel(key, { 'accept-language': 'en;q=0.5,zh-CN;q=0.8' }), chinese);
    expectOpenAIError(await noChannel(key, { 'accept-language': 'fr-FR,fr;q=0.9' }), english);
    expectOpenAIError(await noChannel(key, { 'accept-language': 'fr-FR,zh;q=0.1' }), chinese);
    expectOpenAIError(await noChannel(key), english);
  });
});

describe('X-Gateway-Request-Id on every response', () => {
  const idOf = (response: ClientResponse) => {
    expect(response.requestId).toMatch(/^[0-9a-f]{32}$/);
    return response.requestId;
  };

  it('on successes', async () => {
    const list = await call('/v1/models', { headers: bearer(key) });
    expect(list.status).toBe(200);
    idOf(list);
    const gemini = await call('/v1beta/models', { headers: { 'x-goog-api-key': key } });
    expect(gemini.status).toBe(200);
    idOf(gemini);
  });

  it('on errors, where the message ends with the same id', async () => {
    const response = await call('/v1/chat/completions', { method: 'POST', body: {} });
    expectOpenAIError(response, { status: 401, message: 'Invalid token' });
    expect(response.body.error.message).toBe(`Invalid token (request id: ${idOf(response)})`);
  });

  it('on family B errors', async () => {
    const response = await call('/v1/messages', {
      method: 'POST',
      headers: anthropicHeaders(key),
      body: { model: 'claude-sonnet-4-5' },
    });
    expect(response.body.error.message).toBe(`field messages is required (request id: ${idOf(response)})`);
  });

  it('on 404s', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/messages/count_tokens'],
      ['DELETE', '/v1beta/anything'],
    ] as const) {
      const response = await call(path, { method });
      expectOpenAIError(response, {
        status: 404,
        message: `Invalid URL (${method} ${path})`,
        type: 'invalid_request_error',
      });
      idOf(response);
    }
  });

  it('on the HTML page', async () => {
    const response = await call('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    idOf(response);
  });

  it('differs between requests', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 5; index += 1)
      ids.add(idOf(await call('/v1/models', { headers: bearer(key) })));
    expect(ids.size).toBe(5);
  });
});
