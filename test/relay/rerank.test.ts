import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeJina } from '../fakes/fake-jina.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** `POST /v1/rerank` (admin-api section 6) relayed to a Jina-style rerank upstream. */

const UPSTREAM_KEY = 'jina-upstream-key';
let gw: TestGateway;
let jina: FakeUpstream;
let backup: FakeUpstream;
let key: string;
let userId: number;

beforeAll(async () => {
  jina = await startFakeJina({ apiKey: UPSTREAM_KEY });
  backup = await startFakeJina({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  await gw.admin('POST', '/channels', {
    name: 'jina',
    type: 'openai',
    base_url: jina.origin,
    keys: [UPSTREAM_KEY],
    models: ['reranker'],
    model_mapping: { reranker: 'jina-reranker-v2-base-multilingual' },
    endpoints: ['jina-rerank'],
    priority: 1,
  });
  await gw.admin('POST', '/channels', {
    name: 'jina backup',
    type: 'openai',
    base_url: backup.origin,
    keys: [UPSTREAM_KEY],
    models: ['reranker'],
    endpoints: ['jina-rerank'],
  });
  await gw.admin('PUT', '/prices/reranker', { input: 0.02, output: 0, per_request: 0.001 });
  const user = await gw.admin('POST', '/users', { username: 'ranker', balance: 5 });
  userId = user.body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
});

afterAll(async () => {
  await gw?.close();
  await jina?.close();
  await backup?.close();
});

beforeEach(() => {
  jina.clear();
  backup.clear();
});

async function logs() {
  await gw.gateway.services.tracker.settled();
  await gw.gateway.services.ledger.storeRecords();
  return (await gw.admin('GET', '/logs')).body.data;
}

const rerank = (body: Record<string, unknown>) =>
  send(gw.origin, '/v1/rerank', { method: 'POST', headers: bearer(key), body });

const documents = ['Berlin is in Germany.', 'Paris is the capital of France.', 'Lyon is in France.'];

describe('rerank', () => {
  it('relays the body as it is (model mapped) and the reply as it is; billed by the reported tokens', async () => {
    const body = {
      model: 'reranker',
      query: 'capital of France',
      documents,
      top_n: 2,
      return_documents: true,
    };
    const response = await rerank(body);
    expect(response.status).toBe(200);
    expect(jina.requests).toHaveLength(1);
    expect(jina.requests[0]?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(jina.requests[0]?.body).toEqual({ ...body, model: 'jina-reranker-v2-base-multilingual' });
    expect(response.body).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      usage: { total_tokens: 17 },
      results: [
        { index: 1, document: { text: documents[1] }, relevance_score: 1 },
        { index: 2, document: { text: documents[2] }, relevance_score: 0.333333 },
      ],
    });
    const [log] = await logs();
    expect(log).toMatchObject({
      model: 'reranker',
      endpoint: 'rerank',
      status_code: 200,
      prompt_tokens: 17,
      completion_tokens: 0,
    });
    // 17 tokens x 0.02 per million; no per_request when tokens are reported.
    expect(log.cost).toBeCloseTo(17 * 0.02e-6, 12);
  });

  it('without reported tokens: one call at per_request', async () => {
    const before = (await gw.admin('GET', `/users/${userId}`)).body.balance;
    jina.script({ type: 'reply', omitUsage: true });
    const response = await rerank({ model: 'reranker', query: 'France', documents });
    expect(response.status).toBe(200);
    expect(response.body.usage).toBeUndefined();
    const [log] = await logs();
    expect(log).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, cost: 0.001 });
    expect((await gw.admin('GET', `/users/${userId}`)).body.balance).toBeCloseTo(before - 0.001, 9);
  });

  it('fails over to the next channel on a 5xx', async () => {
    jina.script({ type: 'error', status: 503, message: 'overloaded' });
    const response = await rerank({ model: 'reranker', query: 'France', documents });
    expect(response.status).toBe(200);
    expect(jina.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(backup.requests[0]?.body).toMatchObject({ model: 'reranker' });
    expect((await logs())[0]).toMatchObject({ status_code: 200, prompt_tokens: 15 });
  });

  it('query and documents are required', async () => {
    expectOpenAIError(await rerank({ model: 'reranker', documents }), {
      status: 400,
      message: 'field query is required',
      code: 'invalid_request',
    });
    expectOpenAIError(await rerank({ model: 'reranker', query: 'France' }), {
      status: 400,
      message: 'field documents is required',
      code: 'invalid_request',
    });
    expect(jina.requests).toHaveLength(0);
  });

  it('an upstream refusal is passed through uncharged', async () => {
    const response = await rerank({ model: 'reranker', query: 'France', documents, top_n: 0 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ detail: 'top_n must be a positive integer' });
    expect((await logs())[0]).toMatchObject({ status_code: 400, cost: 0 });
  });

  it('the model list shows jina-rerank', async () => {
    const list = await send(gw.origin, '/v1/models', { headers: bearer(key) });
    expect(list.body.data.find((model: { id: string }) => model.id === 'reranker')).toMatchObject({
      supported_endpoint_types: ['jina-rerank'],
    });
  });
});
