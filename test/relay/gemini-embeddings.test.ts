import { ApiError } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbeddingValues } from '../fakes/fake-embedding-values.js';
import { expectOpenAIError, send } from '../helpers/client-request.js';
import {
  inputCost,
  startEmbeddingsFixture,
  startStaticJsonUpstream,
  tokensOf,
  type EmbeddingsFixture,
} from './embeddings-fixture.js';

/**
 * `POST /v1beta/models/{model}:embedContent` and `:batchEmbedContents` (admin-api section 6)
 * through `@google/genai` and raw requests: Gemini channels as is, OpenAI channels converted.
 */

let fx: EmbeddingsFixture;
beforeAll(async () => {
  fx = await startEmbeddingsFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const post = (target: string, body: unknown) =>
  send(fx.gw.origin, `/v1beta/models/${target}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': fx.key },
    body,
  });

describe('to a gemini channel: the body as is, every model mapped; the reply as is', () => {
  it('@google/genai embedContent (batchEmbedContents on the wire); billed by the gateway count', async () => {
    const before = await fx.balance();
    const reply = await fx.genai.models.embedContent({
      model: 'gemini-embedding',
      contents: ['Paris', 'Rome'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals', outputDimensionality: 3 },
    });
    expect(fx.geminiUpstream.requests).toHaveLength(1);
    const [received] = fx.geminiUpstream.requests;
    expect(received?.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(received?.headers['x-goog-api-key']).toBe('sk-upstream-embeddings');
    const item = (text: string) => ({
      content: { role: 'user', parts: [{ text }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      title: 'Capitals',
      outputDimensionality: 3,
      model: 'models/gemini-embedding-001',
    });
    expect(received?.body).toEqual({ requests: [item('Paris'), item('Rome')] });
    expect(reply.embeddings).toEqual([
      { values: fakeEmbeddingValues('Paris', 3) },
      { values: fakeEmbeddingValues('Rome', 3) },
    ]);
    // Gemini reports no usage: the texts and titles by the gateway's tokenizer.
    const tokens = tokensOf('Paris', 'Capitals', 'Rome', 'Capitals');
    const [log] = await fx.logs();
    expect(log).toMatchObject({
      model: 'gemini-embedding',
      endpoint: 'batch-embed-contents',
      status_code: 200,
      channel_id: fx.channels.gemini,
      prompt_tokens: tokens,
      completion_tokens: 0,
    });
    expect(log.cost).toBeCloseTo(inputCost('gemini-embedding', tokens), 12);
    expect(await fx.balance()).toBeCloseTo(before - inputCost('gemini-embedding', tokens), 12);
  });

  it('raw embedContent: the model of the body mapped, the upstream bytes back', async () => {
    const response = await post('gemini-embedding:embedContent', {
      model: 'models/gemini-embedding',
      content: { parts: [{ text: 'Paris' }] },
      taskType: 'SEMANTIC_SIMILARITY',
    });
    expect(response.status).toBe(200);
    const [received] = fx.geminiUpstream.requests;
    expect(received?.path).toBe('/v1beta/models/gemini-embedding-001:embedContent');
    expect(received?.body).toEqual({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: 'Paris' }] },
      taskType: 'SEMANTIC_SIMILARITY',
    });
    expect(response.text).toBe(JSON.stringify({ embedding: { values: fakeEmbeddingValues('Paris') } }));
    expect((await fx.logs())[0]).toMatchObject({
      endpoint: 'embed-content',
      prompt_tokens: tokensOf('Paris'),
    });
  });

  it('an upstream refusal comes back in the Gemini shape, uncharged', async () => {
    const before = await fx.balance();
    const error = await fx.genai.models
      .embedContent({ model: 'gemini-embedding', contents: 'Paris', config: { taskType: 'SUMMARY' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.parse((error as ApiError).message)).toEqual({
      error: {
        code: 400,
        message:
          'Invalid value at \'requests[0].task_type\' (type.googleapis.com/google.ai.generativelanguage.v1beta.TaskType), "SUMMARY"',
        status: 'INVALID_ARGUMENT',
      },
    });
    expect((await fx.logs())[0]).toMatchObject({ status_code: 400, cost: 0 });
    expect(await fx.balance()).toBe(before);
  });
});

describe('to an openai channel: /v1/embeddings through the canonical form', () => {
  it('@google/genai embedContent: the exact upstream body, floats back, billed by prompt_tokens', async () => {
    fx.openaiUpstream.script({ type: 'reply', usage: { inputTokens: 9 } });
    const reply = await fx.genai.models.embedContent({
      model: 'text-embedding-3-small',
      contents: ['Paris', 'Rome'],
      config: { taskType: 'RETRIEVAL_QUERY', outputDimensionality: 4 },
    });
    expect(fx.openaiUpstream.requests).toHaveLength(1);
    const [received] = fx.openaiUpstream.requests;
    expect(received?.path).toBe('/v1/embeddings');
    expect(received?.body).toEqual({
      model: 'text-embedding-3-small-2024',
      input: ['Paris', 'Rome'],
      encoding_format: 'float',
      dimensions: 4,
    });
    expect(reply.embeddings).toEqual([
      { values: fakeEmbeddingValues('Paris', 4) },
      { values: fakeEmbeddingValues('Rome', 4) },
    ]);
    const [log] = await fx.logs();
    expect(log).toMatchObject({
      model: 'text-embedding-3-small',
      endpoint: 'batch-embed-contents',
      channel_id: fx.channels.openai,
      prompt_tokens: 9,
      completion_tokens: 0,
    });
    expect(log.cost).toBeCloseTo(inputCost('text-embedding-3-small', 9), 12);
  });

  it('raw embedContent: the text parts one line each, one string upstream, the Gemini shape back', async () => {
    const response = await post('text-embedding-3-small:embedContent', {
      content: { role: 'user', parts: [{ text: 'Paris' }, { text: 'Rome' }] },
    });
    expect(response.status).toBe(200);
    expect(fx.openaiUpstream.requests[0]?.body).toEqual({
      model: 'text-embedding-3-small-2024',
      input: 'Paris\nRome',
      encoding_format: 'float',
    });
    expect(response.body).toEqual({ embedding: { values: fakeEmbeddingValues('Paris\nRome') } });
    expect((await fx.logs())[0]).toMatchObject({ endpoint: 'embed-content', prompt_tokens: 20 });
  });

  it('raw batchEmbedContents asking for two dimensionalities: refused, nothing sent', async () => {
    const item = (text: string, outputDimensionality: number) => ({
      model: 'models/text-embedding-3-small',
      content: { parts: [{ text }] },
      outputDimensionality,
    });
    const response = await post('text-embedding-3-small:batchEmbedContents', {
      requests: [item('Paris', 4), item('Rome', 8)],
    });
    expectOpenAIError(response, {
      status: 400,
      message:
        'convert request failed: requests ask for different outputDimensionality values, and an OpenAI-protocol upstream takes one for all inputs',
      code: 'convert_request_failed',
    });
    expect(fx.openaiUpstream.requests).toHaveLength(0);
  });

  it('an upstream 200 without data is its failure: 502 upstream_error, uncharged', async () => {
    const upstream = await startStaticJsonUpstream({ object: 'list' });
    try {
      await fx.gw.admin('POST', '/channels', {
        name: 'broken',
        type: 'openai',
        base_url: upstream.origin,
        keys: ['k'],
        models: ['broken-embedding'],
        endpoints: ['embeddings'],
      });
      await fx.gw.admin('PUT', '/prices/broken-embedding', { input: 1, output: 0 });
      const before = await fx.balance();
      expectOpenAIError(
        await post('broken-embedding:embedContent', { content: { parts: [{ text: 'a' }] } }),
        {
          status: 502,
          message: 'upstream request failed: the upstream embeddings reply has no data array',
          code: 'upstream_error',
        },
      );
      expect((await fx.logs())[0]).toMatchObject({ endpoint: 'embed-content', status_code: 502, cost: 0 });
      expect(await fx.balance()).toBe(before);
    } finally {
      await upstream.close();
    }
  });
});

describe('checks before any upstream call', () => {
  it('content and requests are required', async () => {
    expectOpenAIError(await post('gemini-embedding:embedContent', { taskType: 'CLUSTERING' }), {
      status: 400,
      message: 'field content is required',
      code: 'invalid_request',
    });
    expectOpenAIError(await post('gemini-embedding:batchEmbedContents', {}), {
      status: 400,
      message: 'field requests is required',
      code: 'invalid_request',
    });
  });

  it('a model without a channel declaring embeddings: 503', async () => {
    expectOpenAIError(await post('gpt-4o:embedContent', { content: { parts: [{ text: 'Paris' }] } }), {
      status: 503,
      message: 'No available channel for model gpt-4o under group default (distributor)',
      code: 'model_not_found',
    });
  });

  it('the pre-charge counts the texts and titles of every request', async () => {
    const requests = ['Paris', 'Rome'].map((text) => ({
      model: 'models/gemini-embedding',
      content: { parts: [{ text }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      title: 'European capitals',
    }));
    const preCharge = inputCost(
      'gemini-embedding',
      tokensOf('Paris', 'Rome', 'European capitals', 'European capitals'),
    );
    const short = await fx.gw.admin('POST', '/keys', {
      user_id: fx.userId,
      unlimited_quota: false,
      quota: preCharge - 1e-9,
    });
    const response = await send(fx.gw.origin, '/v1beta/models/gemini-embedding:batchEmbedContents', {
      method: 'POST',
      headers: { 'x-goog-api-key': short.body.key },
      body: { requests },
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('pre_consume_token_quota_failed');
    expect(fx.geminiUpstream.requests).toHaveLength(0);
  });

  it('the Gemini model list shows the embedding methods', async () => {
    const list = await send(fx.gw.origin, '/v1beta/models', { headers: { 'x-goog-api-key': fx.key } });
    const model = list.body.models.find(
      (entry: { name: string }) => entry.name === 'models/gemini-embedding',
    );
    expect(model.supportedGenerationMethods).toEqual(['embedContent', 'batchEmbedContents']);
  });
});
