import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_AWS_CREDENTIAL } from '../fakes/fake-bedrock.js';
import { SIGNATURE_MISMATCH } from '../fakes/verify-bedrock-signature.js';
import { bearer, send } from '../helpers/client-request.js';
import {
  bedrockPath,
  CLAUDE_ID,
  expectSignedRequest,
  LLAMA_ID,
  NOVA_ID,
  SESSION_KEY,
  SIGV4_KEY,
  startBedrockFixture,
  TEMPORARY_CREDENTIAL,
  WRONG_KEY,
  WRONG_SECRET,
  type BedrockFixture,
} from './bedrock-fixture.js';

/** `POST /api/channels/{id}/test` and the model lists for `bedrock` channels (admin-api sections 2 and 5). */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

async function createChannel(body: Record<string, unknown>): Promise<number> {
  const created = await fx.gw.admin('POST', '/channels', {
    type: 'bedrock',
    base_url: fx.bedrock.origin,
    config: { region: 'us-east-1' },
    status: 'disabled',
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function probe(channelId: number): Promise<{ ok: boolean; latency_ms: number; error: string | null }> {
  const answer = await fx.gw.admin('POST', `/channels/${channelId}/test`);
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('channel test', () => {
  it('Claude first: a one-token InvokeModel call, signed', async () => {
    const result = await probe(fx.channels.keyPair);
    expect(result).toMatchObject({ ok: true, error: null });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(fx.bedrock.requests).toHaveLength(1);
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, {
      path: bedrockPath(CLAUDE_ID, 'invoke'),
      accessKeyId: FAKE_AWS_CREDENTIAL.accessKeyId,
    });
    expect(received?.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it.each([
    { model: NOVA_ID, key: SIGV4_KEY, credential: FAKE_AWS_CREDENTIAL },
    { model: LLAMA_ID, key: SESSION_KEY, credential: TEMPORARY_CREDENTIAL },
  ])('Converse first ($model): a one-token Converse call', async ({ model, key, credential }) => {
    const id = await createChannel({
      name: `converse first ${model}`,
      keys: [key],
      models: ['converse-first', 'claude-second'],
      model_mapping: { 'converse-first': model, 'claude-second': CLAUDE_ID },
    });
    const result = await probe(id);
    expect(result).toMatchObject({ ok: true, error: null });
    const [received] = fx.bedrock.requests;
    expectSignedRequest(received, {
      path: bedrockPath(model, 'converse'),
      accessKeyId: credential.accessKeyId,
      sessionToken: credential.sessionToken,
    });
    expect(received?.body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      inferenceConfig: { maxTokens: 1 },
    });
  });

  it('a Bedrock API key channel', async () => {
    const result = await probe(fx.channels.apiKey);
    expect(result).toMatchObject({ ok: true, error: null });
    expect(fx.bedrock.requests[0]?.headers.authorization).toMatch(/^Bearer ABSK/);
  });

  it.each([
    { name: 'Claude first', model: CLAUDE_ID },
    { name: 'Converse first', model: NOVA_ID },
  ])('a wrong secret ($name): not ok, with AWS’s words and no secret', async ({ model }) => {
    const id = await createChannel({
      name: `wrong ${model}`,
      keys: [WRONG_KEY],
      models: ['probed'],
      model_mapping: { probed: model },
    });
    const result = await probe(id);
    expect(result.ok).toBe(false);
    expect(result.error).toBe(`HTTP 403: ${SIGNATURE_MISMATCH}`);
    expect(JSON.stringify(result)).not.toContain(WRONG_SECRET);
    expect(fx.bedrock.requests).toHaveLength(1);
  });

  it('an unknown API key: not ok, and the key is not echoed', async () => {
    const apiKey = 'ABSKbm90LWEta25vd24ta2V5LWZvci10aGUtdGVzdHM=';
    const id = await createChannel({ name: 'unknown api key', keys: [apiKey], models: ['claude-x'] });
    const result = await probe(id);
    expect(result).toMatchObject({
      ok: false,
      error: 'HTTP 403: The security token included in the request is invalid.',
    });
    expect(JSON.stringify(result)).not.toContain(apiKey);
  });

  it('the channel reads back with its keys masked', async () => {
    const channel = await fx.gw.admin('GET', `/channels/${fx.channels.session}`);
    expect(channel.body).toMatchObject({ type: 'bedrock', config: { region: 'us-east-1' } });
    const shown = JSON.stringify(channel.body);
    expect(shown).not.toContain(TEMPORARY_CREDENTIAL.secretAccessKey);
    expect(shown).not.toContain(TEMPORARY_CREDENTIAL.sessionToken);
  });
});

describe('model lists', () => {
  it('GET /v1/models: bedrock models serve anthropic and openai clients, owned by bedrock', async () => {
    const list = await send(fx.gw.origin, '/v1/models', { headers: bearer(fx.key) });
    expect(list.status).toBe(200);
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    for (const id of ['claude-bedrock', 'claude-arn', 'nova-pro', 'llama-3-3', 'nova-api-key'])
      expect(find(id)).toMatchObject({
        id,
        object: 'model',
        owned_by: 'bedrock',
        supported_endpoint_types: ['anthropic', 'openai'],
      });
  });

  it('GET /v1/models for an Anthropic client lists them too', async () => {
    const list = await send(fx.gw.origin, '/v1/models', {
      headers: { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
    });
    expect(list.status).toBe(200);
    const ids = list.body.data.map((model: { id: string }) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['claude-bedrock', 'nova-pro']));
  });
});
