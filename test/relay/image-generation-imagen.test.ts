import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/**
 * `POST /v1/images/generations` (client-api 4.6) on gemini channels: Imagen models through
 * `predict`, the reply back in OpenAI's shape; Gemini's own image models refused.
 */

const GEMINI_KEY = 'gemini-upstream-key';
let gw: TestGateway;
let gemini: FakeUpstream;
let backup: FakeUpstream;
let openai: OpenAI;
let key: string;
let userId: number;
let vipKey: string;
let imagenChannel: number;
let backupChannel: number;

beforeAll(async () => {
  gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  backup = await startFakeGemini({ apiKey: GEMINI_KEY });
  gw = await startTestGateway();
  const channel = async (body: Record<string, unknown>) =>
    (await gw.admin('POST', '/channels', { type: 'gemini', keys: [GEMINI_KEY], ...body })).body.id as number;
  imagenChannel = await channel({
    name: 'imagen',
    base_url: gemini.origin,
    models: ['imagen-4', 'imagen-fast', 'imagen-ha', 'nano-banana'],
    model_mapping: {
      'imagen-4': 'imagen-4.0-generate-001',
      'imagen-fast': 'imagen-4.0-fast-generate-001',
      'imagen-ha': 'imagen-4.0-generate-001',
      'nano-banana': 'gemini-2.5-flash-image',
    },
    endpoints: ['gemini', 'image-generation'],
    groups: ['default', 'vip'],
    priority: 1,
  });
  // Failover is proven on its own model, so the cooldown it causes touches no other test.
  backupChannel = await channel({
    name: 'imagen backup',
    base_url: backup.origin,
    models: ['imagen-ha'],
    model_mapping: { 'imagen-ha': 'imagen-4.0-generate-001' },
    endpoints: ['image-generation'],
  });
  await channel({
    name: 'gemini chat',
    base_url: gemini.origin,
    models: ['gemini-2.5-flash-image', 'imagen-3.0-generate-002'],
  });
  await gw.admin('PUT', '/prices/imagen-4', { input: 0, output: 0, per_request: 0.04 });
  await gw.admin('PUT', '/prices/imagen-fast', { input: 0, output: 0, per_request: 0.02 });
  await gw.admin('PUT', '/prices/imagen-ha', { input: 0, output: 0, per_request: 0.04 });
  await gw.admin('PUT', '/prices/imagen-3.0-generate-002', { input: 0, output: 0, per_request: 0.03 });
  await gw.admin('PUT', '/prices/gemini-2.5-flash-image', { input: 0.3, output: 30 });
  await gw.admin('PUT', '/prices/nano-banana', { input: 0.3, output: 30 });
  await gw.admin('PUT', '/groups/vip', { ratio: 2 });
  userId = (await gw.admin('POST', '/users', { username: 'imagist', balance: 50 })).body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
  const vip = (await gw.admin('POST', '/users', { username: 'vip', balance: 50, group: 'vip' })).body.id;
  vipKey = (await gw.admin('POST', '/keys', { user_id: vip })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.close();
  await gemini?.close();
  await backup?.close();
});

beforeEach(() => {
  gemini.clear();
  backup.clear();
});

async function logs() {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  return (await gw.admin('GET', '/logs')).body.data;
}

const balance = async () => (await gw.admin('GET', `/users/${userId}`)).body.balance;

const generate = (body: unknown, apiKey = key) =>
  send(gw.origin, '/v1/images/generations', { method: 'POST', headers: bearer(apiKey), body });

const predictParameters = () => (gemini.requests[0]?.body as { parameters: unknown }).parameters;

describe('Imagen through image generation', () => {
  it('the SDK generates: predict with the mapped model, the reply in OpenAI shape, per image', async () => {
    const before = await balance();
    const startedAt = Math.floor(Date.now() / 1000);
    const response = await openai.images.generate({
      model: 'imagen-4',
      prompt: 'A lighthouse at dusk',
      n: 2,
      size: '1792x1024',
    });

    expect(gemini.requests).toHaveLength(1);
    const [received] = gemini.requests;
    expect(received?.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict');
    expect(received?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(received?.body).toEqual({
      instances: [{ prompt: 'A lighthouse at dusk' }],
      parameters: { sampleCount: 2, includeRaiReason: true, aspectRatio: '16:9' },
    });
    expect(received?.refused).toBeUndefined();
    expect(response).toEqual({
      created: expect.any(Number),
      data: [{ b64_json: FAKE_PNG_BASE64 }, { b64_json: FAKE_PNG_BASE64 }],
      output_format: 'png',
    });
    expect(response.created).toBeGreaterThanOrEqual(startedAt);

    const [log] = await logs();
    expect(log).toMatchObject({
      model: 'imagen-4',
      endpoint: 'image-generations',
      status_code: 200,
      channel_id: imagenChannel,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0.08,
      error: null,
    });
    expect(await balance()).toBeCloseTo(before - 0.08, 9);
  });

  it.each([
    ['omitted', undefined, {}],
    ['1024x1024', '1024x1024', { aspectRatio: '1:1' }],
    ['1024x1536 (drawn 896x1280)', '1024x1536', { aspectRatio: '3:4' }],
    ['1536x1024 (drawn 1280x896)', '1536x1024', { aspectRatio: '4:3' }],
    ['256x256 (drawn 1024x1024)', '256x256', { aspectRatio: '1:1' }],
    ['2048x2048', '2048x2048', { aspectRatio: '1:1', sampleImageSize: '2K' }],
    ['auto', 'auto', {}],
  ])('size %s', async (_name, size, expected) => {
    const response = await generate({ model: 'imagen-4', prompt: 'x', ...(size && { size }) });
    expect(response.status).toBe(200);
    expect(predictParameters()).toEqual({ sampleCount: 1, includeRaiReason: true, ...expected });
  });

  it('url asked for: answered with b64_json and recorded as a loss; what Imagen lacks is not sent', async () => {
    const debug = vi.spyOn(gw.gateway.services.logger, 'debug');
    const response = await generate({
      model: 'imagen-4',
      prompt: 'A fox',
      response_format: 'url',
      output_format: 'jpeg',
      output_compression: 70,
      person_generation: 'allow_adult',
      negative_prompt: 'people',
      quality: 'high',
      style: 'vivid',
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ b64_json: FAKE_PNG_BASE64 }]);
    expect(response.body.output_format).toBe('jpeg');
    expect(predictParameters()).toEqual({
      sampleCount: 1,
      includeRaiReason: true,
      personGeneration: 'ALLOW_ADULT',
      outputOptions: { mimeType: 'image/jpeg', compressionQuality: 70 },
    });
    await logs();
    const losses = debug.mock.calls
      .map(([fields]) => fields as { requestId?: string; losses?: { path: string; kind: string }[] })
      .find((fields) => fields.requestId === response.requestId)?.losses;
    debug.mockRestore();
    expect(losses?.map(({ kind, path }) => `${kind} ${path}`)).toEqual([
      'dropped negative_prompt',
      'dropped quality',
      'dropped style',
      'coerced response_format',
    ]);
  });

  it('a rewritten prompt comes back as revised_prompt; filtered images are not billed', async () => {
    gemini.script({ type: 'reply', text: 'A red lighthouse, watercolour', refusal: true });
    const response = await openai.images.generate({ model: 'imagen-4', prompt: 'lighthouse', n: 3 });
    expect(response.data).toEqual([
      { b64_json: FAKE_PNG_BASE64, revised_prompt: 'A red lighthouse, watercolour' },
      { b64_json: FAKE_PNG_BASE64, revised_prompt: 'A red lighthouse, watercolour' },
    ]);
    expect((await logs())[0]).toMatchObject({ status_code: 200, cost: 0.08 });

    gemini.script({ type: 'reply', refusal: true });
    const none = await openai.images.generate({ model: 'imagen-4', prompt: 'lighthouse' });
    expect(none.data).toEqual([]);
    expect((await logs())[0]).toMatchObject({ status_code: 200, cost: 0 });
  });

  it('the group ratio multiplies the per-image price', async () => {
    const response = await generate({ model: 'imagen-fast', prompt: 'x', n: 2 }, vipKey);
    expect(response.status).toBe(200);
    expect(gemini.requests[0]?.path).toBe('/v1beta/models/imagen-4.0-fast-generate-001:predict');
    // 2 images x 0.02 x ratio 2
    expect((await logs())[0]).toMatchObject({ model: 'imagen-fast', cost: 0.08 });
  });

  it('an upstream refusal is passed through as the upstream wrote it, not charged', async () => {
    const before = await balance();
    const tooMany = await generate({ model: 'imagen-4', prompt: 'x', n: 5 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(tooMany.body.error.message).toContain('between 1 and 4');
    const twoK = await generate({ model: 'imagen-fast', prompt: 'x', size: '2048x2048' });
    expect(twoK.body.error.message).toBe(
      'sampleImageSize is not supported for model imagen-4.0-fast-generate-001.',
    );
    expect((await logs()).slice(0, 2)).toMatchObject([
      { status_code: 400, cost: 0 },
      { status_code: 400, cost: 0 },
    ]);
    expect(await balance()).toBe(before);
  });

  it('a body the conversion cannot read: 400 convert_request_failed, nothing upstream', async () => {
    expectOpenAIError(await generate({ model: 'imagen-4', prompt: 'x', size: 'huge' }), {
      status: 400,
      message: 'convert request failed: size must be "auto" or WIDTHxHEIGHT, such as "1024x1024"',
      code: 'convert_request_failed',
    });
    expect(gemini.requests).toHaveLength(0);
  });

  it('fails over to the next channel on a 5xx', async () => {
    gemini.script({ type: 'error', status: 500 });
    const response = await openai.images.generate({ model: 'imagen-ha', prompt: 'x' });
    expect(response.data).toHaveLength(1);
    expect(gemini.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0]?.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict');
    expect((await logs())[0]).toMatchObject({ status_code: 200, channel_id: backupChannel, cost: 0.04 });
  });

  it.each(['gemini-2.5-flash-image', 'nano-banana'])(
    '%s, a Gemini image model: 500, nothing upstream, nothing charged or recorded',
    async (model) => {
      const before = await balance();
      const recorded = (await logs()).length;
      expectOpenAIError(await generate({ model, prompt: 'A fox' }), {
        status: 500,
        message: 'not supported model for image generation, only imagen models are supported',
      });
      expect(gemini.requests).toHaveLength(0);
      // Refused before any reservation, like every refusal of the checks before it: no usage record.
      expect(await logs()).toHaveLength(recorded);
      expect(await balance()).toBe(before);
    },
  );

  it('an Imagen model on a channel not declaring image-generation: 503 No available channel', async () => {
    expectOpenAIError(await generate({ model: 'imagen-3.0-generate-002', prompt: 'x' }), {
      status: 503,
      message: 'No available channel for model imagen-3.0-generate-002 under group default (distributor)',
      code: 'model_not_found',
    });
    expect(gemini.requests).toHaveLength(0);
  });

  it('the model list shows image-generation beside the endpoint types the channel declares', async () => {
    const list = await send(gw.origin, '/v1/models', { headers: bearer(key) });
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    expect(find('imagen-4')).toMatchObject({
      owned_by: 'gemini',
      supported_endpoint_types: ['gemini', 'image-generation'],
    });
    expect(find('gemini-2.5-flash-image').supported_endpoint_types).toEqual(['gemini', 'openai']);
  });
});
