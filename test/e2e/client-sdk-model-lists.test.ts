import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChannel, seedPrice, seedUserWithKey } from '../helpers/seed.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** The official SDKs list models against the gateway in their own formats (client-api 1 and 4.1). */

let gw: TestGateway;
let key: string;
let limitedKey: string;

const expectedIds = ['claude-sonnet-4-5', 'gemini-2.5-flash', 'gemini-2.5-pro', 'gpt-4o', 'gpt-4o-mini'];
const limitedIds = ['gemini-2.5-pro', 'gpt-4o'];

beforeAll(async () => {
  gw = await startTestGateway();
  await seedChannel(gw, { type: 'openai', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-unpriced'] });
  await seedChannel(gw, { type: 'anthropic', models: ['claude-sonnet-4-5'] });
  await seedChannel(gw, { type: 'gemini', models: ['gemini-2.5-pro', 'gemini-2.5-flash'] });
  await seedChannel(gw, { type: 'openai', models: ['off-model'], status: 'disabled' });
  for (const model of [...expectedIds, 'off-model']) await seedPrice(gw, model, 1);
  ({ key } = await seedUserWithKey(gw));
  ({ key: limitedKey } = await seedUserWithKey(gw, { key: { modelLimits: limitedIds } }));
});

afterAll(async () => {
  await gw?.close();
});

const noRetries = { maxRetries: 0 };

describe('openai', () => {
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${gw.origin}/v1`, ...noRetries });

  it('models.list() returns exactly the usable models', async () => {
    const ids: string[] = [];
    for await (const model of client(key).models.list()) {
      expect(model.object).toBe('model');
      expect(typeof model.owned_by).toBe('string');
      ids.push(model.id);
    }
    expect(ids).toEqual(expectedIds);
    const limited: string[] = [];
    for await (const model of client(limitedKey).models.list()) limited.push(model.id);
    expect(limited).toEqual(limitedIds);
  });

  it('a wrong key is an AuthenticationError carrying the message', async () => {
    const error = await client('sk-wrong')
      .models.list()
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    const apiError = error as InstanceType<typeof OpenAI.AuthenticationError>;
    const requestId = apiError.headers?.get('x-gateway-request-id');
    expect(apiError.status).toBe(401);
    expect(apiError.error).toEqual({
      message: `Invalid token (request id: ${requestId})`,
      type: 'gateway_api_error',
      param: '',
      code: '',
    });
  });
});

describe('@anthropic-ai/sdk', () => {
  const client = (apiKey: string) => new Anthropic({ apiKey, baseURL: gw.origin, ...noRetries });
  /** The SDK configured to send the key in `x-api-key`, as Claude Code and older SDK versions do. */
  const xApiKeyClient = (apiKey: string) =>
    new Anthropic({
      apiKey: null,
      authToken: null,
      defaultHeaders: { 'x-api-key': apiKey },
      baseURL: gw.origin,
      ...noRetries,
    });

  it('models.list() with apiKey returns exactly the usable models', async () => {
    // This SDK version sends `apiKey` as `Authorization: Bearer` beside `anthropic-version`, without
    // `x-api-key`; client-api 4.1 then answers family A, whose `data[].id` the SDK reads the same way.
    const ids: string[] = [];
    for await (const model of client(key).models.list()) ids.push(model.id);
    expect(ids).toEqual(expectedIds);
    const limited: string[] = [];
    for await (const model of client(limitedKey).models.list()) limited.push(model.id);
    expect(limited).toEqual(limitedIds);
  });

  it('models.list() with the key in x-api-key gets the family B list', async () => {
    const models = [];
    for await (const model of xApiKeyClient(key).models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual(expectedIds);
    const createdAt = models[0]?.created_at;
    expect(models).toEqual(
      expectedIds.map((id) => ({ id, display_name: id, type: 'model', created_at: createdAt })),
    );
    const page = await xApiKeyClient(limitedKey).models.list();
    expect(page.data.map((model) => model.id)).toEqual(limitedIds);
    expect(page.has_more).toBe(false);
    expect(page.first_id).toBe(limitedIds[0]);
    expect(page.last_id).toBe(limitedIds.at(-1));
  });

  it('a wrong key is an AuthenticationError with status 401', async () => {
    for (const anthropic of [client('sk-wrong'), xApiKeyClient('sk-wrong')]) {
      const error = await anthropic.models.list().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((error as InstanceType<typeof Anthropic.AuthenticationError>).status).toBe(401);
    }
  });
});

describe('@google/genai', () => {
  const client = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: gw.origin } });

  async function listNames(apiKey: string) {
    const pager = await client(apiKey).models.list();
    const models = [];
    for await (const model of pager) models.push(model);
    return models;
  }

  it('models.list() returns exactly the usable models', async () => {
    const models = await listNames(key);
    expect(models.map((model) => model.name)).toEqual(expectedIds.map((id) => `models/${id}`));
    for (const model of models) {
      expect(model.displayName).toBe(model.name?.slice('models/'.length));
      expect(model.supportedActions).toEqual(['generateContent', 'streamGenerateContent']);
    }
    expect((await listNames(limitedKey)).map((model) => model.name)).toEqual(
      limitedIds.map((id) => `models/${id}`),
    );
  });

  it('a wrong key is an ApiError with status 401', async () => {
    const error = await listNames('sk-wrong').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'ApiError', status: 401 });
  });
});
