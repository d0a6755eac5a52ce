import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** `POST /v1/alpha/search` (client-api 4.4) and its billing as one web-search call. */

const UPSTREAM_KEY = 'sk-upstream-search';
let gw: TestGateway;
let upstream: FakeUpstream;
let key: string;
let userId: number;

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  await gw.admin('POST', '/channels', {
    name: 'search',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-search', 'gpt-search-cheap'],
    model_mapping: { 'gpt-search': 'gpt-6.1-sol' },
    endpoints: ['openai', 'openai-alpha-search'],
    groups: ['default', 'vip'],
  });
  await gw.admin('POST', '/channels', {
    name: 'chat only',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o'],
  });
  // Token prices are ignored: a search is one call with zero tokens.
  await gw.admin('PUT', '/prices/gpt-search', { input: 5, output: 20, per_request: 0.01 });
  await gw.admin('PUT', '/prices/gpt-search-cheap', { input: 5, output: 20 });
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  await gw.admin('PATCH', '/settings', { web_search_price: 0.025 });
  await gw.admin('PUT', '/groups/vip', { ratio: 2 });
  const user = await gw.admin('POST', '/users', { username: 'searcher', balance: 1 });
  userId = user.body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
});

afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

beforeEach(() => upstream.clear());

async function logs() {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  return (await gw.admin('GET', '/logs')).body.data;
}

const balance = async (id = userId) => (await gw.admin('GET', `/users/${id}`)).body.balance;

const search = (body: Record<string, unknown>, apiKey = key) =>
  send(gw.origin, '/v1/alpha/search', { method: 'POST', headers: bearer(apiKey), body });

describe('alpha search', () => {
  it('forwards the body as it is (model mapped), returns the reply bytes as they are', async () => {
    const body = {
      model: 'gpt-search',
      commands: { search_query: [{ q: 'weather in Paris' }, { q: 'Louvre hours' }] },
      locale: 'fr-FR',
      future_member: { nested: [1, 2, 3] },
    };
    const response = await search(body);
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.path).toBe('/v1/alpha/search');
    expect(upstream.requests[0]?.body).toEqual({ ...body, model: 'gpt-6.1-sol' });
    expect(response.text).toBe(
      JSON.stringify({
        id: 'search_fake0001',
        object: 'search.result',
        results: [
          {
            query: 'weather in Paris',
            results: [
              {
                title: 'Hello from fake OpenAI.',
                url: 'https://example.com/result',
                snippet: 'Hello from fake OpenAI.',
              },
            ],
          },
          {
            query: 'Louvre hours',
            results: [
              {
                title: 'Hello from fake OpenAI.',
                url: 'https://example.com/result',
                snippet: 'Hello from fake OpenAI.',
              },
            ],
          },
        ],
      }),
    );
  });

  it('is charged one call at the model per_request price, with zero tokens', async () => {
    const before = await balance();
    expect((await search({ model: 'gpt-search' })).status).toBe(200);
    const [log] = await logs();
    expect(log).toMatchObject({
      model: 'gpt-search',
      endpoint: 'alpha-search',
      status_code: 200,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost: 0.01,
    });
    expect(await balance()).toBeCloseTo(before - 0.01, 9);
  });

  it('without a per_request price: the web_search_price setting, times the group ratio', async () => {
    expect((await search({ model: 'gpt-search-cheap' })).status).toBe(200);
    expect((await logs())[0]).toMatchObject({ model: 'gpt-search-cheap', cost: 0.025 });

    const vip = await gw.admin('POST', '/users', { username: 'vip-searcher', balance: 1, group: 'vip' });
    const vipKey = (await gw.admin('POST', '/keys', { user_id: vip.body.id })).body.key;
    expect((await search({ model: 'gpt-search-cheap' }, vipKey)).status).toBe(200);
    expect((await search({ model: 'gpt-search' }, vipKey)).status).toBe(200);
    const [perRequest, setting] = await logs();
    expect(setting).toMatchObject({ user_id: vip.body.id, cost: 0.05 });
    expect(perRequest).toMatchObject({ user_id: vip.body.id, cost: 0.02 });
    expect(await balance(vip.body.id)).toBeCloseTo(1 - 0.07, 9);
  });

  it('is pre-charged: a balance below one call is refused before anything goes upstream', async () => {
    const poor = await gw.admin('POST', '/users', { username: 'poor-searcher', balance: 0.005 });
    const poorKey = (await gw.admin('POST', '/keys', { user_id: poor.body.id })).body.key;
    expectOpenAIError(await search({ model: 'gpt-search' }, poorKey), {
      status: 403,
      message: '预扣费额度失败, 用户剩余额度: $0.005000, 需要预扣费额度: $0.010000',
      code: 'insufficient_user_quota',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('a model not labelled openai-alpha-search: channel does not support /v1/alpha/search', async () => {
    expectOpenAIError(await search({ model: 'gpt-4o', commands: {} }), {
      status: 400,
      message: 'channel does not support /v1/alpha/search',
      code: 'invalid_request',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('only model is required', async () => {
    expectOpenAIError(await search({ commands: {} }), {
      status: 400,
      message: 'Model name not specified, model name cannot be empty',
    });
    const response = await search({ model: 'gpt-search' });
    expect(response.status).toBe(200);
    expect(upstream.requests[0]?.body).toEqual({ model: 'gpt-6.1-sol' });
  });

  it('an upstream failure is not charged and the pre-charge comes back', async () => {
    const before = await balance();
    upstream.script({ type: 'error', status: 500, message: 'search backend down' });
    upstream.script({ type: 'error', status: 500, message: 'search backend down' });
    upstream.script({ type: 'error', status: 500, message: 'search backend down' });
    const response = await search({ model: 'gpt-search' });
    expect(response.status).toBe(500);
    expect((await logs())[0]).toMatchObject({ status_code: 500, cost: 0 });
    expect(await balance()).toBe(before);
  });
});
