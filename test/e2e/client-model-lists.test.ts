import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, send, type ClientRequest, type ClientResponse } from '../helpers/client-request.js';
import { seedChannel, seedPrice, seedUserWithKey, updateChannel } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** Client-api 4.1 with 2.1 and 2.2, admin-api section 4: which models are listed, and in which format. */

let gw: TestGateway;
let key: string;

interface Listed {
  id: string;
  ownedBy: string;
  endpointTypes: string[];
  /** `supportedGenerationMethods` of the Gemini format; default generateContent and its stream. */
  geminiMethods?: string[];
}

const openaiTypes = ['openai', 'openai-response'];
const anthropicTypes = ['anthropic', 'openai'];
const geminiTypes = ['gemini', 'openai'];

/** Everything group default may use, sorted by id. */
const defaultGroupModels: Listed[] = [
  { id: 'claude-haiku-4-5', ownedBy: 'anthropic', endpointTypes: anthropicTypes },
  { id: 'claude-sonnet-4-5', ownedBy: 'anthropic', endpointTypes: anthropicTypes },
  { id: 'gemini-2.5-flash', ownedBy: 'gemini', endpointTypes: geminiTypes },
  { id: 'gemini-2.5-pro', ownedBy: 'gemini', endpointTypes: geminiTypes },
  { id: 'gpt-4o', ownedBy: 'openai', endpointTypes: openaiTypes },
  { id: 'gpt-4o-mini', ownedBy: 'openai', endpointTypes: openaiTypes },
  {
    id: 'gpt-image-1',
    ownedBy: 'openai',
    endpointTypes: ['openai-response-compact', 'image-generation', 'openai'],
  },
  // Served by an anthropic channel of priority 10 and an openai channel of priority 0.
  { id: 'multi-model', ownedBy: 'anthropic', endpointTypes: ['anthropic', 'openai', 'openai-response'] },
  { id: 'o3', ownedBy: 'openai', endpointTypes: openaiTypes },
  { id: 'reranker', ownedBy: 'openai', endpointTypes: ['jina-rerank'], geminiMethods: [] },
  { id: 'shared-model', ownedBy: 'anthropic', endpointTypes: anthropicTypes },
  {
    id: 'text-embedding-3-small',
    ownedBy: 'openai',
    endpointTypes: ['embeddings'],
    geminiMethods: ['embedContent', 'batchEmbedContents'],
  },
];

const vipGroupModels: Listed[] = [
  { id: 'shared-model', ownedBy: 'anthropic', endpointTypes: anthropicTypes },
  { id: 'vip-model', ownedBy: 'openai', endpointTypes: openaiTypes },
];

beforeAll(async () => {
  gw = await startTestGateway();
  await seedChannel(gw, {
    type: 'openai',
    models: ['gpt-4o', 'gpt-4o-mini', 'o3', 'gpt-unpriced', 'multi-model'],
  });
  await seedChannel(gw, { type: 'anthropic', models: ['claude-sonnet-4-5', 'claude-haiku-4-5'] });
  await seedChannel(gw, { type: 'gemini', models: ['gemini-2.5-pro', 'gemini-2.5-flash'] });
  await seedChannel(gw, {
    type: 'openai',
    models: ['gpt-image-1'],
    endpoints: ['openai-response-compact', 'image-generation', 'openai'],
  });
  await seedChannel(gw, { type: 'openai', models: ['text-embedding-3-small'], endpoints: ['embeddings'] });
  await seedChannel(gw, { type: 'openai', models: ['reranker'], endpoints: ['jina-rerank'] });
  await seedChannel(gw, { type: 'openai', models: ['disabled-model', 'gpt-4o'], status: 'disabled' });
  await seedChannel(gw, { type: 'anthropic', models: ['auto-disabled-model'], status: 'auto_disabled' });
  await seedChannel(gw, { type: 'openai', models: ['vip-model'], groups: ['vip'] });
  await seedChannel(gw, { type: 'anthropic', models: ['shared-model'], groups: ['default', 'vip'] });
  await seedChannel(gw, { type: 'anthropic', models: ['multi-model'], priority: 10 });
  for (const model of [
    ...defaultGroupModels.map((model) => model.id),
    'vip-model',
    'disabled-model',
    'auto-disabled-model',
    'priced-without-channel',
  ]) {
    await seedPrice(gw, model, 1);
  }
  ({ key } = await seedUserWithKey(gw));
});

afterAll(async () => {
  await gw?.close();
});

const call = (path: string, options?: ClientRequest) => send(gw.origin, path, options);

/** The `created` / `created_at` values: fixed, so read from the first record and required equal everywhere. */
function fixedValue<T>(records: Record<string, unknown>[], field: string): T {
  const value = records[0]?.[field] as T;
  for (const record of records) expect(record[field]).toBe(value);
  return value;
}

function expectOpenAIList(response: ClientResponse, models: Listed[]): void {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const created = fixedValue<number>(response.body.data, 'created');
  if (models.length > 0) expect(Number.isInteger(created)).toBe(true);
  expect(response.body).toEqual({
    object: 'list',
    success: true,
    data: models.map((model) => ({
      id: model.id,
      object: 'model',
      created,
      owned_by: model.ownedBy,
      supported_endpoint_types: model.endpointTypes,
    })),
  });
}

function expectAnthropicList(response: ClientResponse, models: Listed[]): void {
  expect(response.status).toBe(200);
  const createdAt = fixedValue<string>(response.body.data, 'created_at');
  if (models.length > 0) expect(new Date(createdAt).toISOString().slice(0, 19)).toBe(createdAt.slice(0, 19));
  expect(response.body).toEqual({
    data: models.map((model) => ({
      id: model.id,
      display_name: model.id,
      type: 'model',
      created_at: createdAt,
    })),
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
    has_more: false,
  });
}

function expectGeminiList(response: ClientResponse, models: Listed[]): void {
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    models: models.map((model) => ({
      name: `models/${model.id}`,
      baseModelId: model.id,
      version: expect.any(String),
      displayName: model.id,
      description: expect.any(String),
      supportedGenerationMethods: model.geminiMethods ?? ['generateContent', 'streamGenerateContent'],
    })),
  });
}

describe('GET /v1/models: the format follows the headers, in order', () => {
  it('Bearer: family A', async () => {
    expectOpenAIList(await call('/v1/models', { headers: bearer(key) }), defaultGroupModels);
  });

  it('Authorization without Bearer: family A', async () => {
    expectOpenAIList(await call('/v1/models', { headers: { authorization: key } }), defaultGroupModels);
  });

  it('x-api-key with anthropic-version: family B', async () => {
    const response = await call('/v1/models', {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    });
    expectAnthropicList(response, defaultGroupModels);
  });

  it('x-api-key alone: family A', async () => {
    expectOpenAIList(await call('/v1/models', { headers: { 'x-api-key': key } }), defaultGroupModels);
  });

  it('anthropic-version with a Bearer key and no x-api-key: family A', async () => {
    const response = await call('/v1/models', {
      headers: { ...bearer(key), 'anthropic-version': '2023-06-01' },
    });
    expectOpenAIList(response, defaultGroupModels);
  });

  it('x-goog-api-key: Gemini ListModels', async () => {
    expectGeminiList(await call('/v1/models', { headers: { 'x-goog-api-key': key } }), defaultGroupModels);
  });

  it('?key=: Gemini ListModels', async () => {
    expectGeminiList(await call(`/v1/models?key=${key}`), defaultGroupModels);
  });

  it('x-api-key and anthropic-version win over x-goog-api-key and ?key=', async () => {
    const response = await call(`/v1/models?key=${key}`, {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'x-goog-api-key': key },
    });
    expectAnthropicList(response, defaultGroupModels);
  });

  it('x-api-key without anthropic-version and x-goog-api-key: Gemini', async () => {
    expectGeminiList(
      await call('/v1/models', { headers: { 'x-api-key': key, 'x-goog-api-key': key } }),
      defaultGroupModels,
    );
  });

  it('a Bearer key with ?key=: Gemini', async () => {
    expectGeminiList(await call(`/v1/models?key=${key}`, { headers: bearer(key) }), defaultGroupModels);
  });
});

describe('the family A and C list paths', () => {
  it('/v1beta/openai/models is family A whatever carries the key', async () => {
    expectOpenAIList(await call('/v1beta/openai/models', { headers: bearer(key) }), defaultGroupModels);
    expectOpenAIList(
      await call('/v1beta/openai/models', { headers: { 'x-goog-api-key': key } }),
      defaultGroupModels,
    );
    expectOpenAIList(await call(`/v1beta/openai/models?key=${key}`), defaultGroupModels);
  });

  it('/v1beta/models is Gemini ListModels whatever carries the key', async () => {
    expectGeminiList(
      await call('/v1beta/models', { headers: { 'x-goog-api-key': key } }),
      defaultGroupModels,
    );
    expectGeminiList(await call(`/v1beta/models?key=${key}`), defaultGroupModels);
    expectGeminiList(await call('/v1beta/models', { headers: bearer(key) }), defaultGroupModels);
  });
});

describe('which models are listed', () => {
  const lists = (apiKey: string) =>
    Promise.all([
      call('/v1/models', { headers: bearer(apiKey) }),
      call('/v1/models', { headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' } }),
      call('/v1beta/models', { headers: { 'x-goog-api-key': apiKey } }),
      call('/v1beta/openai/models', { headers: bearer(apiKey) }),
    ]);

  async function expectAllFormats(apiKey: string, models: Listed[]) {
    const [openai, anthropic, gemini, openaiBeta] = await lists(apiKey);
    expectOpenAIList(openai as ClientResponse, models);
    expectAnthropicList(anthropic as ClientResponse, models);
    expectGeminiList(gemini as ClientResponse, models);
    expectOpenAIList(openaiBeta as ClientResponse, models);
  }

  it("priced models an enabled channel of the key's group serves: not unpriced, not disabled, not other groups", async () => {
    await expectAllFormats(key, defaultGroupModels);
  });

  it("the user's group applies when the key has none", async () => {
    const { key: vipKey } = await seedUserWithKey(gw, { user: { group: 'vip' } });
    await expectAllFormats(vipKey, vipGroupModels);
  });

  it("the key's group overrides the user's", async () => {
    const { key: toVip } = await seedUserWithKey(gw, { user: { group: 'default' }, key: { group: 'vip' } });
    await expectAllFormats(toVip, vipGroupModels);
    const { key: toDefault } = await seedUserWithKey(gw, {
      user: { group: 'vip' },
      key: { group: 'default' },
    });
    await expectAllFormats(toDefault, defaultGroupModels);
  });

  it('a group no channel serves lists nothing', async () => {
    const { key: lonely } = await seedUserWithKey(gw, { user: { group: 'nobody' } });
    await expectAllFormats(lonely, []);
  });

  it('Model Limits narrow the list; unknown or unserved entries add nothing', async () => {
    const { key: limited } = await seedUserWithKey(gw, {
      key: {
        modelLimits: ['gpt-4o', 'claude-sonnet-4-5', 'vip-model', 'gpt-unpriced', 'disabled-model', 'nope'],
      },
    });
    await expectAllFormats(
      limited,
      defaultGroupModels.filter((model) => ['gpt-4o', 'claude-sonnet-4-5'].includes(model.id)),
    );
  });

  it('channel and price changes show on the next request', async () => {
    const channel = await seedChannel(gw, { type: 'gemini', models: ['late-model'] });
    expectOpenAIList(await call('/v1/models', { headers: bearer(key) }), defaultGroupModels);
    await seedPrice(gw, 'late-model', 1);
    const withLate = [
      ...defaultGroupModels,
      { id: 'late-model', ownedBy: 'gemini', endpointTypes: geminiTypes },
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expectOpenAIList(await call('/v1/models', { headers: bearer(key) }), withLate);
    await updateChannel(gw, channel.id, { status: 'auto_disabled' });
    expectOpenAIList(await call('/v1/models', { headers: bearer(key) }), defaultGroupModels);
  });
});

describe('virtual models in the lists (admin-api section 11.2)', () => {
  const smart: Listed = {
    id: 'smart',
    ownedBy: 'virtual',
    endpointTypes: ['anthropic', 'openai', 'openai-response'],
  };
  const withSmart = [...defaultGroupModels, smart].sort((a, b) => (a.id < b.id ? -1 : 1));

  beforeAll(async () => {
    const virtual = (name: string, targets: string[]) =>
      gw.admin('POST', '/virtual-models', { name, targets: targets.map((model) => ({ model })) });
    expect((await virtual('smart', ['claude-sonnet-4-5', 'gpt-unpriced', 'gpt-4o'])).status).toBe(201);
    expect((await virtual('vip-only', ['vip-model'])).status).toBe(201);
    expect((await virtual('unpriced-only', ['gpt-unpriced', 'priced-without-channel'])).status).toBe(201);
  });
  afterAll(async () => {
    for (const name of ['smart', 'vip-only', 'unpriced-only'])
      await gw.admin('DELETE', `/virtual-models/${name}`);
  });

  it("a virtual model of which the group reaches a priced target is listed in every format, owned by virtual, with its targets' endpoint types", async () => {
    expectOpenAIList(await call('/v1/models', { headers: bearer(key) }), withSmart);
    const anthropic = await call('/v1/models', {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    });
    expectAnthropicList(anthropic, withSmart);
    expectGeminiList(await call('/v1beta/models', { headers: { 'x-goog-api-key': key } }), withSmart);
  });

  it("follows the key's group", async () => {
    const { key: vipKey } = await seedUserWithKey(gw, { user: { group: 'vip' } });
    expectOpenAIList(
      await call('/v1/models', { headers: bearer(vipKey) }),
      [...vipGroupModels, { id: 'vip-only', ownedBy: 'virtual', endpointTypes: openaiTypes }].sort((a, b) =>
        a.id < b.id ? -1 : 1,
      ),
    );
  });

  it('Model Limits are checked on the virtual name, not on its targets', async () => {
    const { key: onlySmart } = await seedUserWithKey(gw, { key: { modelLimits: ['smart'] } });
    expectOpenAIList(await call('/v1/models', { headers: bearer(onlySmart) }), [smart]);
    const { key: onlyTargets } = await seedUserWithKey(gw, {
      key: { modelLimits: ['gpt-4o', 'claude-sonnet-4-5'] },
    });
    expectOpenAIList(
      await call('/v1/models', { headers: bearer(onlyTargets) }),
      defaultGroupModels.filter((model) => ['gpt-4o', 'claude-sonnet-4-5'].includes(model.id)),
    );
  });
});
