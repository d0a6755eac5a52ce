import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { FAKE_CREATED_AT, type FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** `POST /v1/images/generations` (client-api 4.6) on OpenAI-protocol channels, through the `openai` SDK. */

const UPSTREAM_KEY = 'sk-upstream-images';
let gw: TestGateway;
let upstream: FakeUpstream;
let backup: FakeUpstream;
let openai: OpenAI;
let key: string;
let userId: number;
let imagesChannel: number;
let backupChannel: number;

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  backup = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  const channel = (body: Record<string, unknown>) =>
    gw.admin('POST', '/channels', { type: 'openai', keys: [UPSTREAM_KEY], ...body });
  imagesChannel = (
    await channel({
      name: 'images',
      base_url: upstream.origin,
      models: ['gpt-image-1', 'gpt-image-1.5', 'dall-e-3', 'dall-e-2'],
      model_mapping: { 'gpt-image-1': 'gpt-image-1-mini' },
      endpoints: ['image-generation'],
      priority: 1,
    })
  ).body.id;
  // Failover is proven on its own model, so the cooldown it causes touches no other test.
  backupChannel = (
    await channel({
      name: 'images backup',
      base_url: backup.origin,
      models: ['gpt-image-1.5'],
      endpoints: ['image-generation'],
    })
  ).body.id;
  await channel({ name: 'chat only', base_url: upstream.origin, models: ['gpt-4o'] });
  await gw.admin('PUT', '/prices/gpt-image-1', { input: 5, output: 40, per_request: 0.04 });
  await gw.admin('PUT', '/prices/gpt-image-1.5', { input: 5, output: 40 });
  await gw.admin('PUT', '/prices/dall-e-3', { input: 0, output: 0, per_request: 0.08 });
  await gw.admin('PUT', '/prices/dall-e-2', { input: 0, output: 0, per_request: 0.02 });
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  userId = (await gw.admin('POST', '/users', { username: 'painter', balance: 100 })).body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.close();
  await upstream?.close();
  await backup?.close();
});

beforeEach(() => {
  upstream.clear();
  backup.clear();
});

async function logs() {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  return (await gw.admin('GET', '/logs')).body.data;
}

const balance = async (id = userId) => (await gw.admin('GET', `/users/${id}`)).body.balance;

const generate = (body: unknown, apiKey = key) =>
  send(gw.origin, '/v1/images/generations', { method: 'POST', headers: bearer(apiKey), body });

const gptImageUsage = {
  input_tokens: 20,
  input_tokens_details: { text_tokens: 20, image_tokens: 0 },
  output_tokens: 12,
  total_tokens: 32,
};

describe('image generation on openai channels', () => {
  it('GPT image: the body as is (model mapped), the reply as is, billed by its token usage', async () => {
    const before = await balance();
    const body = {
      model: 'gpt-image-1',
      prompt: 'A lighthouse at dusk',
      n: 2,
      size: '1536x1024' as const,
      quality: 'high' as const,
      background: 'opaque' as const,
      moderation: 'low' as const,
      output_format: 'webp' as const,
      output_compression: 80,
      user: 'user-42',
    };
    const response = await openai.images.generate(body);

    expect(upstream.requests).toHaveLength(1);
    const [received] = upstream.requests;
    expect(received?.path).toBe('/v1/images/generations');
    expect(received?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(received?.body).toEqual({ ...body, model: 'gpt-image-1-mini' });
    expect(received?.refused).toBeUndefined();
    expect(response).toEqual({
      created: FAKE_CREATED_AT,
      background: 'opaque',
      data: [{ b64_json: FAKE_PNG_BASE64 }, { b64_json: FAKE_PNG_BASE64 }],
      output_format: 'webp',
      quality: 'high',
      size: '1536x1024',
      usage: gptImageUsage,
    });

    const [log] = await logs();
    expect(log).toMatchObject({
      model: 'gpt-image-1',
      endpoint: 'image-generations',
      stream: false,
      status_code: 200,
      channel_id: imagesChannel,
      prompt_tokens: 20,
      completion_tokens: 12,
      error: null,
    });
    // 20 x 5 + 12 x 40 per million tokens; per_request is not added when tokens are reported.
    expect(log.cost).toBeCloseTo(580e-6, 12);
    expect(await balance()).toBeCloseTo(before - 580e-6, 9);
  });

  it('stream and partial_images are taken out; the upstream bytes come back unchanged', async () => {
    const response = await generate({ model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(upstream.requests[0]?.body).toEqual({ model: 'gpt-image-1-mini', prompt: 'x' });
    expect(response.text).toBe(
      JSON.stringify({
        created: FAKE_CREATED_AT,
        background: 'opaque',
        data: [{ b64_json: FAKE_PNG_BASE64 }],
        output_format: 'png',
        quality: 'high',
        size: '1024x1024',
        usage: gptImageUsage,
      }),
    );
  });

  it('DALL·E replies report no usage: per_request for each image returned', async () => {
    const before = await balance();
    const three = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'A fox',
      size: '1792x1024',
      quality: 'hd',
      style: 'vivid',
      response_format: 'url',
    });
    expect(three.data).toEqual([
      {
        url: expect.stringMatching(/^https:\/\/images\.fake-openai\.invalid\//),
        revised_prompt: 'A detailed picture of A fox',
      },
    ]);
    expect((await logs())[0]).toMatchObject({
      model: 'dall-e-3',
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0.08,
    });

    const two = await openai.images.generate({
      model: 'dall-e-2',
      prompt: 'A fox',
      n: 3,
      response_format: 'b64_json',
    });
    expect(two.data).toHaveLength(3);
    expect((await logs())[0]).toMatchObject({ model: 'dall-e-2', cost: 0.06 });
    expect(await balance()).toBeCloseTo(before - 0.14, 9);
  });

  it('a GPT image reply without usage is billed per image too', async () => {
    upstream.script({ type: 'reply', omitUsage: true });
    const response = await openai.images.generate({ model: 'gpt-image-1', prompt: 'x', n: 2 });
    expect(response.usage).toBeUndefined();
    expect((await logs())[0]).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, cost: 0.08 });
  });

  it.each([0, 129, 1.5, '2', -1, true, [2]])('n = %j: 400, nothing upstream, nothing recorded', async (n) => {
    const recorded = (await logs()).length;
    const before = await balance();
    expectOpenAIError(await generate({ model: 'dall-e-2', prompt: 'x', n }), {
      status: 400,
      message: 'n must be an integer between 1 and 128',
      code: 'invalid_request',
    });
    expect(upstream.requests).toHaveLength(0);
    expect(await logs()).toHaveLength(recorded);
    expect(await balance()).toBe(before);
  });

  it('n omitted or null is one image; 128 is the gateway limit, the upstream then refuses', async () => {
    for (const body of [{}, { n: null }]) {
      const response = await generate({ model: 'dall-e-2', prompt: 'x', ...body });
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(1);
      expect((await logs())[0]).toMatchObject({ status_code: 200, cost: 0.02 });
    }
    upstream.clear();
    const many = await generate({ model: 'gpt-image-1', prompt: 'x', n: 128 });
    expect(upstream.requests).toHaveLength(1);
    expect(many.status).toBe(400);
    expect(many.body.error).toMatchObject({ param: 'n', code: 'integer_above_max_value' });
  });

  it('a prompt is required', async () => {
    expectOpenAIError(await generate({ model: 'dall-e-2', n: 1 }), {
      status: 400,
      message: 'field prompt is required',
      code: 'invalid_request',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('an upstream refusal is passed through and not charged', async () => {
    const before = await balance();
    const refusal = await openai.images
      .generate({ model: 'dall-e-3', prompt: 'x', n: 2 })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refusal as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message: 'You must provide n=1 for this model.',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
    const unknown = await generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'url' });
    expect(unknown.body).toEqual({
      error: {
        message: "Unknown parameter: 'response_format'.",
        type: 'invalid_request_error',
        param: 'response_format',
        code: 'unknown_parameter',
      },
    });
    const [second, first] = await logs();
    expect(first).toMatchObject({
      model: 'dall-e-3',
      status_code: 400,
      cost: 0,
      endpoint: 'image-generations',
    });
    expect(second).toMatchObject({ model: 'gpt-image-1', status_code: 400, cost: 0 });
    expect(await balance()).toBe(before);
  });

  it('fails over to the next channel on a 5xx', async () => {
    upstream.script({ type: 'error', status: 503, message: 'overloaded' });
    const response = await openai.images.generate({ model: 'gpt-image-1.5', prompt: 'x' });
    expect(response.data).toHaveLength(1);
    expect(upstream.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0]?.body).toEqual({ model: 'gpt-image-1.5', prompt: 'x' });
    expect((await logs())[0]).toMatchObject({
      status_code: 200,
      channel_id: backupChannel,
      prompt_tokens: 20,
    });
  });

  it('a model whose channels do not declare image-generation: 503 No available channel', async () => {
    expectOpenAIError(await generate({ model: 'gpt-4o', prompt: 'x' }), {
      status: 503,
      message: 'No available channel for model gpt-4o under group default (distributor)',
      code: 'model_not_found',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('model limits and the pre-charge apply as for chat; the pre-charge counts every image asked for', async () => {
    const limited = (await gw.admin('POST', '/keys', { user_id: userId, model_limits: ['dall-e-3'] })).body
      .key;
    expectOpenAIError(await generate({ model: 'gpt-image-1', prompt: 'x' }, limited), {
      status: 403,
      message: 'This token has no access to model gpt-image-1',
    });
    const poor = (await gw.admin('POST', '/users', { username: 'poor painter', balance: 0.1 })).body.id;
    const poorKey = (await gw.admin('POST', '/keys', { user_id: poor })).body.key;
    const refused = await generate({ model: 'dall-e-2', prompt: 'x', n: 6 }, poorKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_user_quota');
    expect(refused.body.error.message).toMatch(
      /^预扣费额度失败, 用户剩余额度: \$0\.100000, 需要预扣费额度: \$0\.120000 /,
    );
    expect(upstream.requests).toHaveLength(0);
    expect((await generate({ model: 'dall-e-2', prompt: 'x', n: 4 }, poorKey)).status).toBe(200);
    expect(await balance(poor)).toBeCloseTo(0.02, 9);
  });

  it('the model list shows image-generation for such models', async () => {
    const list = await send(gw.origin, '/v1/models', { headers: bearer(key) });
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    expect(find('gpt-image-1')).toMatchObject({
      owned_by: 'openai',
      supported_endpoint_types: ['image-generation'],
    });
    expect(find('gpt-4o').supported_endpoint_types).toEqual(['openai', 'openai-response']);
  });
});
