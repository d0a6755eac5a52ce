import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** `POST /v1/responses/compact` (client-api 4.3) through the `openai` SDK and raw requests. */

const UPSTREAM_KEY = 'sk-upstream-compact';
let gw: TestGateway;
let upstream: FakeUpstream;
let openai: OpenAI;
let key: string;
let userId: number;

beforeAll(async () => {
  upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  gw = await startTestGateway();
  await gw.admin('POST', '/channels', {
    name: 'compacting',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-5.1-codex'],
    model_mapping: { 'gpt-5.1-codex': 'gpt-5.1-codex-2025-11-13' },
    endpoints: ['openai', 'openai-response', 'openai-response-compact'],
  });
  await gw.admin('POST', '/channels', {
    name: 'plain',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o'],
  });
  await gw.admin('PUT', '/prices/gpt-5.1-codex', { input: 1.25, output: 10, cached_input: 0.125 });
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
  const user = await gw.admin('POST', '/users', { username: 'compactor', balance: 10 });
  userId = user.body.id;
  key = (await gw.admin('POST', '/keys', { user_id: userId })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
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

const conversation = [
  { role: 'user' as const, content: 'Plan a trip to Paris.' },
  { role: 'assistant' as const, content: 'Day one: the Louvre.' },
  { role: 'user' as const, content: 'And day two?' },
];

describe('responses compact', () => {
  it('the SDK compacts through the gateway: listed members forwarded, the reply as is, billed by its usage', async () => {
    const compacted = await openai.responses.compact({
      model: 'gpt-5.1-codex',
      input: conversation,
      instructions: 'Keep the dates.',
      prompt_cache_key: 'trip-42',
      prompt_cache_retention: '24h',
      service_tier: 'flex',
    });

    expect(upstream.requests).toHaveLength(1);
    const [received] = upstream.requests;
    expect(received?.path).toBe('/v1/responses/compact');
    expect(received?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(received?.body).toEqual({
      model: 'gpt-5.1-codex-2025-11-13',
      input: conversation,
      instructions: 'Keep the dates.',
      prompt_cache_key: 'trip-42',
      prompt_cache_retention: '24h',
    });

    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.at(-1)?.type).toBe('compaction');
    expect(compacted.usage).toMatchObject({ input_tokens: 20, output_tokens: 12 });

    const [log] = await logs();
    expect(log).toMatchObject({
      model: 'gpt-5.1-codex',
      endpoint: 'responses-compact',
      stream: false,
      status_code: 200,
      prompt_tokens: 20,
      completion_tokens: 12,
      cached_tokens: 8,
      reasoning_tokens: 5,
      error: null,
    });
    // (20 - 8) x 1.25 + 8 x 0.125 + 12 x 10, per million tokens.
    expect(log.cost).toBeCloseTo(136e-6, 12);
  });

  it('drops tools, reasoning, text, service_tier and stream; a stream request still gets one JSON body', async () => {
    const response = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: {
        model: 'gpt-5.1-codex',
        input: 'Summarise our chat.',
        previous_response_id: 'resp_abc',
        parallel_tool_calls: false,
        prompt_cache_options: { mode: 'auto' },
        tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
        reasoning: { effort: 'high' },
        text: { verbosity: 'low' },
        service_tier: 'priority',
        stream: true,
        metadata: { trip: 'paris' },
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body.object).toBe('response.compaction');
    expect(upstream.requests[0]?.body).toEqual({
      model: 'gpt-5.1-codex-2025-11-13',
      input: 'Summarise our chat.',
      previous_response_id: 'resp_abc',
      parallel_tool_calls: false,
      prompt_cache_options: { mode: 'auto' },
    });
    expect(upstream.requests[0]?.refused).toBeUndefined();
  });

  it('returns the upstream bytes unchanged', async () => {
    const response = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: { model: 'gpt-5.1-codex', input: 'hi' },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['id', 'object', 'created_at', 'output', 'usage']);
    expect(response.body.id).toMatch(/^resp_/);
  });

  it('a model whose channel does not list openai-response-compact: refused, nothing sent upstream', async () => {
    const response = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: { model: 'gpt-4o', input: 'hi' },
    });
    expectOpenAIError(response, {
      status: 400,
      message: 'channel does not support /v1/responses/compact',
      code: 'invalid_request',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('an unknown model: 503 no channel; no model: 400', async () => {
    const unknown = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: { model: 'gpt-nope', input: 'hi' },
    });
    expectOpenAIError(unknown, {
      status: 503,
      message: 'No available channel for model gpt-nope under group default (distributor)',
      code: 'model_not_found',
    });
    const missing = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: { input: 'hi' },
    });
    expectOpenAIError(missing, {
      status: 400,
      message: 'Model name not specified, model name cannot be empty',
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('an upstream refusal is passed through and not charged', async () => {
    const before = (await gw.admin('GET', `/users/${userId}`)).body.balance;
    upstream.script({ type: 'error', status: 400, message: 'Previous response not found.' });
    const response = await send(gw.origin, '/v1/responses/compact', {
      method: 'POST',
      headers: bearer(key),
      body: { model: 'gpt-5.1-codex', previous_response_id: 'resp_gone' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Previous response not found.');
    const [log] = await logs();
    expect(log).toMatchObject({ status_code: 400, cost: 0, endpoint: 'responses-compact' });
    expect((await gw.admin('GET', `/users/${userId}`)).body.balance).toBe(before);
  });
});
