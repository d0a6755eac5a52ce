import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AZURE_ACCESS_DENIED } from '../fakes/fake-azure.js';
import { bearer, send } from '../helpers/client-request.js';
import {
  AZURE_KEY,
  DATED_VERSION,
  expectAzureRequest,
  OPENAI_KEY,
  startAzureFixture,
  type AzureFixture,
} from './azure-fixture.js';

/** Azure channels in the management API, the channel test, failover and the model list. */

let fx: AzureFixture;
beforeAll(async () => {
  fx = await startAzureFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

const ask = (model: string) =>
  fx.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello?' }] });

/** Disabling and enabling a channel clears its health (cooldowns after a failure). */
async function resetHealth(...ids: number[]) {
  for (const id of ids) {
    await fx.gw.admin('PATCH', `/channels/${id}`, { status: 'disabled' });
    await fx.gw.admin('PATCH', `/channels/${id}`, { status: 'enabled' });
  }
}

describe('config in the management API', () => {
  it('is shown with its default, and a dated version as given', async () => {
    expect((await fx.gw.admin('GET', `/channels/${fx.channels.v1}`)).body).toMatchObject({
      type: 'azure',
      config: { api_version: 'v1' },
    });
    const dated = await fx.gw.admin('GET', `/channels/${fx.channels.dated}`);
    expect(dated.body.config).toEqual({ api_version: DATED_VERSION });
    const listed = (await fx.gw.admin('GET', '/channels')).body.data;
    expect(listed.find((channel: { id: number }) => channel.id === fx.channels.v1).config).toEqual({
      api_version: 'v1',
    });
  });

  it('is PATCHable, and the next request follows it', async () => {
    const id = fx.channels.v1;
    const patched = await fx.gw.admin('PATCH', `/channels/${id}`, { config: { api_version: '2024-10-21' } });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toEqual({ api_version: '2024-10-21' });
    await ask('azure-v1');
    expectAzureRequest(fx.azure.requests[0], {
      url: '/openai/deployments/chat-v1/chat/completions?api-version=2024-10-21',
      deployment: 'chat-v1',
    });

    const reset = await fx.gw.admin('PATCH', `/channels/${id}`, { config: {} });
    expect(reset.body.config).toEqual({ api_version: 'v1' });
    await ask('azure-v1');
    expectAzureRequest(fx.azure.requests[1], { url: '/openai/v1/chat/completions', deployment: 'chat-v1' });
  });

  it('refuses a version that is none, naming the field', async () => {
    const refused = await fx.gw.admin('PATCH', `/channels/${fx.channels.dated}`, {
      config: { api_version: '21-10-2024' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('config.api_version');
    expect((await fx.gw.admin('GET', `/channels/${fx.channels.dated}`)).body.config).toEqual({
      api_version: DATED_VERSION,
    });
  });
});

describe('POST /api/channels/{id}/test', () => {
  it('is ok against the resource, with a one-token chat request on its wire', async () => {
    for (const [id, url, deployment] of [
      [fx.channels.v1, '/openai/v1/chat/completions', 'chat-v1'],
      [
        fx.channels.dated,
        `/openai/deployments/chat-dated/chat/completions?api-version=${DATED_VERSION}`,
        'chat-dated',
      ],
    ] as const) {
      fx.azure.clear();
      const probe = await fx.gw.admin('POST', `/channels/${id}/test`);
      expect(probe.status).toBe(200);
      expect(probe.body).toMatchObject({ ok: true, error: null });
      expect(probe.body.latency_ms).toBeGreaterThanOrEqual(0);
      expectAzureRequest(fx.azure.requests[0], { url, deployment });
    }
  });

  it('is not ok with a wrong key, and says why without the key', async () => {
    const created = await fx.gw.admin('POST', '/channels', {
      name: 'azure wrong key',
      type: 'azure',
      base_url: fx.azure.origin,
      keys: ['not-the-azure-key'],
      models: ['azure-wrong'],
      model_mapping: { 'azure-wrong': 'chat-v1' },
      status: 'disabled',
    });
    const probe = await fx.gw.admin('POST', `/channels/${created.body.id}/test`);
    expect(probe.body.ok).toBe(false);
    expect(probe.body.error).toBe(`HTTP 401: ${AZURE_ACCESS_DENIED}`);
    expect(fx.azure.requests[0]?.headers['api-key']).toBe('not-the-azure-key');
  });
});

describe('failover between an Azure channel and a direct OpenAI one', () => {
  it('a failing Azure channel hands over to openai, and openai back to Azure', async () => {
    fx.azure.script({ type: 'error', status: 500 });
    const handedOver = await ask('shared-4o');
    expect(handedOver.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
    expectAzureRequest(fx.azure.requests[0], { url: '/openai/v1/chat/completions', deployment: 'chat-v1' });
    expect(fx.direct.requests).toHaveLength(1);
    expect(fx.direct.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${OPENAI_KEY}` },
      body: { model: 'gpt-4o-2024-08-06' },
    });
    expect(fx.direct.requests[0]?.headers['api-key']).toBeUndefined();
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'shared-4o', channel_id: fx.channels.openai, status_code: 200 });

    await resetHealth(fx.channels.shared);
    await fx.gw.admin('PATCH', `/channels/${fx.channels.shared}`, { priority: -1 });
    try {
      fx.clear();
      fx.direct.script({ type: 'error', status: 503 });
      const back = await ask('shared-4o');
      expect(back.choices[0]?.message.content).toBe('Hello from fake Azure OpenAI.');
      expect(fx.direct.requests).toHaveLength(1);
      expect(fx.azure.requests).toHaveLength(1);
      expectAzureRequest(fx.azure.requests[0], { url: '/openai/v1/chat/completions', deployment: 'chat-v1' });
      expect(fx.azure.requests[0]?.headers['api-key']).toBe(AZURE_KEY);
      const [latest] = await fx.logs();
      expect(latest).toMatchObject({ model: 'shared-4o', channel_id: fx.channels.shared, status_code: 200 });
    } finally {
      await fx.gw.admin('PATCH', `/channels/${fx.channels.shared}`, { priority: 10 });
      await resetHealth(fx.channels.openai);
    }
  });
});

describe('GET /v1/models', () => {
  it('lists Azure models with their endpoint types, owned by azure', async () => {
    const list = await send(fx.gw.origin, '/v1/models', { headers: bearer(fx.key) });
    expect(list.status).toBe(200);
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    for (const id of ['azure-v1', 'azure-dated'])
      expect(find(id)).toMatchObject({
        id,
        object: 'model',
        owned_by: 'azure',
        supported_endpoint_types: ['openai', 'openai-response'],
      });
  });
});
