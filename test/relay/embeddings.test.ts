import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEmbeddingValues, float32LittleEndianBase64 } from '../fakes/fake-embedding-values.js';
import { bearer, expectOpenAIError, send } from '../helpers/client-request.js';
import {
  asFloat32,
  inputCost,
  readFloat32LittleEndian,
  startEmbeddingsFixture,
  startStaticJsonUpstream,
  tokensOf,
  type EmbeddingsFixture,
} from './embeddings-fixture.js';

/** `POST /v1/embeddings` (admin-api section 6) through the `openai` SDK and raw requests. */

let fx: EmbeddingsFixture;
beforeAll(async () => {
  fx = await startEmbeddingsFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const embed = (body: Record<string, unknown>, key = fx.key) =>
  send(fx.gw.origin, '/v1/embeddings', { method: 'POST', headers: bearer(key), body });

describe('to an openai channel: the body as is (model mapped), the reply as is', () => {
  it('the SDK (base64 by default) gets the upstream bytes; billed by prompt_tokens', async () => {
    const before = await fx.balance();
    fx.openaiUpstream.script({ type: 'reply', usage: { inputTokens: 7 } });
    const reply = await fx.openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['Paris', 'Rome'],
      dimensions: 4,
      user: 'end-user-1',
    });
    expect(fx.openaiUpstream.requests).toHaveLength(1);
    const [received] = fx.openaiUpstream.requests;
    expect(received?.path).toBe('/v1/embeddings');
    expect(received?.headers.authorization).toBe('Bearer sk-upstream-embeddings');
    expect(received?.body).toEqual({
      model: 'text-embedding-3-small-2024',
      input: ['Paris', 'Rome'],
      dimensions: 4,
      user: 'end-user-1',
      encoding_format: 'base64',
    });
    expect(reply.model).toBe('text-embedding-3-small-2024');
    expect(reply.data.map((item) => item.embedding)).toEqual([
      asFloat32(fakeEmbeddingValues('Paris', 4)),
      asFloat32(fakeEmbeddingValues('Rome', 4)),
    ]);
    expect(reply.usage).toEqual({ prompt_tokens: 7, total_tokens: 7 });

    const [log] = await fx.logs();
    expect(log).toMatchObject({
      model: 'text-embedding-3-small',
      endpoint: 'embeddings',
      stream: false,
      status_code: 200,
      channel_id: fx.channels.openai,
      prompt_tokens: 7,
      completion_tokens: 0,
      error: null,
    });
    expect(log.cost).toBeCloseTo(inputCost('text-embedding-3-small', 7), 12);
    expect(await fx.balance()).toBeCloseTo(before - inputCost('text-embedding-3-small', 7), 12);
  });

  it('base64 asked for explicitly: the exact bytes the upstream wrote', async () => {
    const response = await embed({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'base64',
    });
    expect(response.status).toBe(200);
    expect(response.text).toBe(
      JSON.stringify({
        object: 'list',
        data: [
          {
            object: 'embedding',
            index: 0,
            embedding: float32LittleEndianBase64(fakeEmbeddingValues('Paris')),
          },
        ],
        model: 'text-embedding-3-small-2024',
        usage: { prompt_tokens: 20, total_tokens: 20 },
      }),
    );
  });

  it('without prompt_tokens: billed by the gateway count of the input, token ids one each', async () => {
    fx.openaiUpstream.script({ type: 'reply', omitUsage: true });
    const response = await embed({ model: 'text-embedding-3-small', input: [[11, 12, 13], [14]] });
    expect(response.status).toBe(200);
    expect(response.body.usage).toBeUndefined();
    const [log] = await fx.logs();
    expect(log).toMatchObject({ endpoint: 'embeddings', prompt_tokens: 4, completion_tokens: 0 });
    expect(log.cost).toBeCloseTo(inputCost('text-embedding-3-small', 4), 12);
  });
});

describe('to a gemini channel: batchEmbedContents, the reply in the OpenAI shape', () => {
  it('the exact upstream body; floats back; billed by the gateway count', async () => {
    const before = await fx.balance();
    const reply = await fx.openai.embeddings.create({
      model: 'gemini-embedding',
      input: ['Paris', 'Rome'],
      dimensions: 3,
      encoding_format: 'float',
      user: 'end-user-1',
    });
    expect(fx.geminiUpstream.requests).toHaveLength(1);
    const [received] = fx.geminiUpstream.requests;
    expect(received?.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(received?.headers['x-goog-api-key']).toBe('sk-upstream-embeddings');
    expect(received?.body).toEqual({
      requests: [
        {
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text: 'Paris' }] },
          outputDimensionality: 3,
        },
        {
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text: 'Rome' }] },
          outputDimensionality: 3,
        },
      ],
    });
    const tokens = tokensOf('Paris', 'Rome');
    expect(reply).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: fakeEmbeddingValues('Paris', 3) },
        { object: 'embedding', index: 1, embedding: fakeEmbeddingValues('Rome', 3) },
      ],
      model: 'gemini-embedding',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
    const [log] = await fx.logs();
    expect(log).toMatchObject({
      model: 'gemini-embedding',
      endpoint: 'embeddings',
      status_code: 200,
      channel_id: fx.channels.gemini,
      prompt_tokens: tokens,
      completion_tokens: 0,
    });
    expect(log.cost).toBeCloseTo(inputCost('gemini-embedding', tokens), 12);
    expect(await fx.balance()).toBeCloseTo(before - inputCost('gemini-embedding', tokens), 12);
  });

  it('base64: float32 little-endian of the upstream floats, decoded by the SDK and by hand', async () => {
    const values = fakeEmbeddingValues('Lyon is in France.');
    const decoded = await fx.openai.embeddings.create({
      model: 'gemini-embedding',
      input: 'Lyon is in France.',
    });
    expect(decoded.data[0]?.embedding).toEqual(asFloat32(values));
    const raw = await embed({
      model: 'gemini-embedding',
      input: 'Lyon is in France.',
      encoding_format: 'base64',
    });
    expect(raw.status).toBe(200);
    expect(readFloat32LittleEndian(raw.body.data[0].embedding)).toEqual(asFloat32(values));
    expect(raw.body.data[0].embedding).toBe(float32LittleEndianBase64(values));
  });

  it('token ids: Gemini embeds text only, refused before any upstream call', async () => {
    const response = await embed({ model: 'gemini-embedding', input: [1, 2, 3] });
    expectOpenAIError(response, {
      status: 400,
      message: 'convert request failed: input holds token ids, and a Gemini upstream embeds text only',
      code: 'convert_request_failed',
    });
    expect(fx.geminiUpstream.requests).toHaveLength(0);
    expect((await fx.logs())[0]).toMatchObject({ status_code: 400, cost: 0 });
  });
});

describe('routing and failures', () => {
  it('an upstream 400 is passed through as is and not charged', async () => {
    const before = await fx.balance();
    const response = await embed({ model: 'text-embedding-3-small', input: ['Paris', ''] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: {
        message:
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    // Not retried elsewhere: a 400 is the client's fault. (Before the failover test, which leaves
    // the first channel cooling down.)
    expect(fx.openaiUpstream.requests).toHaveLength(1);
    expect(fx.backupUpstream.requests).toHaveLength(0);
    expect((await fx.logs())[0]).toMatchObject({ endpoint: 'embeddings', status_code: 400, cost: 0 });
    expect(await fx.balance()).toBe(before);
  });

  it('fails over to the next channel on a 5xx', async () => {
    fx.openaiUpstream.script({ type: 'error', status: 503, message: 'overloaded' });
    const response = await embed({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'float',
    });
    expect(response.status).toBe(200);
    expect(fx.openaiUpstream.requests).toHaveLength(1);
    expect(fx.backupUpstream.requests).toHaveLength(1);
    expect(fx.backupUpstream.requests[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'float',
    });
    expect(response.body.data[0].embedding).toEqual(fakeEmbeddingValues('Paris'));
    expect((await fx.logs())[0]).toMatchObject({ status_code: 200, channel_id: fx.channels.backup });
  });

  it('a model without a channel declaring embeddings: 503; nothing sent', async () => {
    for (const model of ['gpt-4o', 'text-embedding-nope']) {
      expectOpenAIError(await embed({ model, input: 'Paris' }), {
        status: 503,
        message: `No available channel for model ${model} under group default (distributor)`,
        code: 'model_not_found',
      });
    }
    expect(fx.openaiUpstream.requests).toHaveLength(0);
  });

  it('input is required', async () => {
    expectOpenAIError(await embed({ model: 'text-embedding-3-small' }), {
      status: 400,
      message: 'field input is required',
      code: 'invalid_request',
    });
    expect(fx.openaiUpstream.requests).toHaveLength(0);
  });
});

describe('key limits and the pre-charge apply as for chat', () => {
  const newKey = async (attributes: Record<string, unknown>) =>
    (await fx.gw.admin('POST', '/keys', { user_id: fx.userId, ...attributes })).body.key as string;

  it('Model Limits: 403', async () => {
    const key = await newKey({ model_limits: ['gpt-4o'] });
    expectOpenAIError(await embed({ model: 'text-embedding-3-small', input: 'Paris' }, key), {
      status: 403,
      message: 'This token has no access to model text-embedding-3-small',
    });
  });

  it('IP allow list: 403', async () => {
    const key = await newKey({ ip_allow_list: ['10.1.2.3'] });
    expectOpenAIError(await embed({ model: 'text-embedding-3-small', input: 'Paris' }, key), {
      status: 403,
      message: '您的 IP 不在令牌允许访问的列表中',
      code: 'access_denied',
    });
  });

  it('rpm: the second request in a minute gets 429', async () => {
    const key = await newKey({ rpm: 1 });
    expect((await embed({ model: 'text-embedding-3-small', input: 'Paris' }, key)).status).toBe(200);
    const limited = await embed({ model: 'text-embedding-3-small', input: 'Paris' }, key);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('the pre-charge is estimated input x input price, no output: a cap just below it is refused', async () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog.',
      'Pack my box with five dozen liquor jugs.',
    ];
    const preCharge = inputCost('gemini-embedding', tokensOf(...texts));
    const short = await newKey({ unlimited_quota: false, quota: preCharge - 1e-9 });
    const refused = await embed({ model: 'gemini-embedding', input: texts }, short);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('pre_consume_token_quota_failed');
    expect(refused.body.error.message).toContain(`need quota: $${preCharge.toFixed(6)}`);
    expect(fx.geminiUpstream.requests).toHaveLength(0);

    const exact = await newKey({ unlimited_quota: false, quota: preCharge });
    const answered = await embed({ model: 'gemini-embedding', input: texts }, exact);
    expect(answered.status).toBe(200);
    expect(fx.geminiUpstream.requests).toHaveLength(1);
  });

  it('the pre-charge and the cost are times the group ratio', async () => {
    const texts = ['Lyon is in France.', 'Turin is in Italy.'];
    const cost = 3 * inputCost('gemini-embedding', tokensOf(...texts));
    await fx.gw.admin('PUT', '/groups/default', { ratio: 3 });
    try {
      const short = await newKey({ unlimited_quota: false, quota: cost - 1e-9 });
      expect((await embed({ model: 'gemini-embedding', input: texts }, short)).status).toBe(403);
      const exact = await newKey({ unlimited_quota: false, quota: cost });
      expect((await embed({ model: 'gemini-embedding', input: texts }, exact)).status).toBe(200);
      const [log] = await fx.logs();
      expect(log).toMatchObject({ status_code: 200, prompt_tokens: tokensOf(...texts) });
      expect(log.cost).toBeCloseTo(cost, 12);
    } finally {
      await fx.gw.admin('PUT', '/groups/default', { ratio: 1 });
    }
  });
});

describe('upstream replies the gateway cannot read, and channel tests', () => {
  it('a 200 without vectors is the upstream failing (502 upstream_error), not the gateway; uncharged', async () => {
    const upstream = await startStaticJsonUpstream({ unexpected: true });
    try {
      await fx.gw.admin('POST', '/channels', {
        name: 'broken',
        type: 'gemini',
        base_url: upstream.origin,
        keys: ['k'],
        models: ['broken-embedding'],
        endpoints: ['embeddings'],
      });
      await fx.gw.admin('PUT', '/prices/broken-embedding', { input: 1, output: 0 });
      const before = await fx.balance();
      expectOpenAIError(await embed({ model: 'broken-embedding', input: 'Paris' }), {
        status: 502,
        message: 'upstream request failed: the upstream embedding reply has neither embedding nor embeddings',
        code: 'upstream_error',
      });
      expect((await fx.logs())[0]).toMatchObject({ model: 'broken-embedding', status_code: 502, cost: 0 });
      expect(await fx.balance()).toBe(before);
    } finally {
      await upstream.close();
    }
  });

  it('the channel test probes /v1/embeddings and :embedContent, bodies the fakes accept', async () => {
    for (const id of [fx.channels.openai, fx.channels.gemini]) {
      const probe = await fx.gw.admin('POST', `/channels/${id}/test`);
      expect(probe.body).toMatchObject({ ok: true, error: null });
    }
    expect(fx.openaiUpstream.requests[0]?.path).toBe('/v1/embeddings');
    expect(fx.openaiUpstream.requests[0]?.refused).toBeUndefined();
    expect(fx.geminiUpstream.requests[0]?.path).toBe('/v1beta/models/gemini-embedding-001:embedContent');
    expect(fx.geminiUpstream.requests[0]?.refused).toBeUndefined();
  });
});
