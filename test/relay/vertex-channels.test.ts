import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestServiceAccount, type TestServiceAccount } from '../fakes/make-test-service-account.js';
import { bearer, send } from '../helpers/client-request.js';
import {
  CLAUDE_UPSTREAM,
  expectVertexRequest,
  GEMINI_UPSTREAM,
  PROJECT,
  startVertexFixture,
  vertexPath,
  type VertexFixture,
} from './vertex-fixture.js';

/** `vertex` channels in the management API, the channel test and the model list. */

let fx: VertexFixture;
beforeAll(async () => {
  fx = await startVertexFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

/** Disabled, so that no relayed request ever goes to it: only the channel test does. */
const disabledVertex = (body: Record<string, unknown>) => ({
  type: 'vertex',
  base_url: fx.vertex.origin,
  keys: [fx.vertex.serviceAccount.json],
  config: fx.vertexConfig(),
  status: 'disabled',
  ...body,
});

function account(options: { projectId: string; registered: boolean }): TestServiceAccount {
  const made = makeTestServiceAccount({
    tokenUri: fx.vertex.tokenUrl,
    projectId: options.projectId,
    accountName: `channels-${Math.random().toString(36).slice(2, 10)}`,
  });
  if (options.registered) fx.vertex.oauth.register(made);
  return made;
}

/** Neither the key nor any piece of a private key it holds. */
function expectNoKey(text: string, key: string): void {
  expect(text).not.toContain(key);
  expect(text).not.toContain('PRIVATE KEY');
  const secret = /"private_key":\s*"([^"]*)"/.exec(key)?.[1] ?? '';
  const body = secret.replace(/-----[A-Z ]+-----|\\n|\s/g, '');
  for (let start = 0; start + 16 <= body.length; start += 16)
    expect(text).not.toContain(body.slice(start, start + 16));
}

describe('keys', () => {
  const invalidKeys = [
    { name: 'an API key', key: 'AIzaSyD-not-a-service-account-0123456789' },
    {
      name: 'JSON of another kind',
      key: JSON.stringify({ type: 'authorized_user', client_secret: 'd-FL95Q19q7MQmFpd7hHD0Ty' }),
    },
    {
      name: 'a service account whose private key is no key',
      key: JSON.stringify({
        type: 'service_account',
        client_email: 'bad@vertex-project.iam.gserviceaccount.com',
        private_key:
          '-----BEGIN PRIVATE KEY-----\nTUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFFRkFBU0NCS2N3Z2dTakFnRUFBb0lCQVFD\n-----END PRIVATE KEY-----\n',
      }),
    },
  ];

  it.each(invalidKeys)('$name is refused with 400 naming the key, never echoing it', async ({ key }) => {
    const refused = await fx.gw.admin(
      'POST',
      '/channels',
      disabledVertex({ name: 'bad key', models: ['x'], keys: [key] }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_request' });
    expect(refused.body.error.message).toContain('keys[0]');
    expectNoKey(JSON.stringify(refused.body), key);

    const second = await fx.gw.admin('PATCH', `/channels/${fx.channels.vertex}`, {
      keys: [fx.vertex.serviceAccount.json, key],
    });
    expect(second.status).toBe(400);
    expect(second.body.error.message).toContain('keys[1]');
    expectNoKey(JSON.stringify(second.body), key);
  });

  it('are write-only: a read never shows the service-account key', async () => {
    const read = await fx.gw.admin('GET', `/channels/${fx.channels.vertex}`);
    expect(read.status).toBe(200);
    expectNoKey(JSON.stringify(read.body), fx.vertex.serviceAccount.json);
  });
});

describe('config', () => {
  it('is shown with its defaults', async () => {
    const created = await fx.gw.admin('POST', '/channels', {
      name: 'vertex defaults',
      type: 'vertex',
      keys: [fx.vertex.serviceAccount.json],
      models: ['never-requested'],
      status: 'disabled',
    });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({
      region: 'us-central1',
      token_url: 'https://oauth2.googleapis.com/token',
    });
    expect((await fx.gw.admin('GET', `/channels/${created.body.id}`)).body.config).toEqual(
      created.body.config,
    );
    await fx.gw.admin('DELETE', `/channels/${created.body.id}`);
  });

  it('shows what was given', async () => {
    const read = await fx.gw.admin('GET', `/channels/${fx.channels.shared}`);
    expect(read.body.config).toEqual({ ...fx.vertexConfig(), project: PROJECT });
  });

  it.each([
    { config: { location: 'us-east5' }, field: 'config.location' },
    { config: { region: 'US Central' }, field: 'config.region' },
    { config: { token_url: 'not a url' }, field: 'config.token_url' },
  ])('refuses $field', async ({ config, field }) => {
    const refused = await fx.gw.admin(
      'POST',
      '/channels',
      disabledVertex({ name: 'bad', models: ['x'], config }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(field);
  });

  it("project wins over the key's project_id in the URL", async () => {
    const elsewhere = account({ projectId: 'other-project', registered: true });
    const id = await fx.addChannel({
      ...disabledVertex({ name: 'other project', keys: [elsewhere.json], models: ['vx-gemini'] }),
      status: 'enabled',
      config: { ...fx.vertexConfig(), project: PROJECT },
      model_mapping: { 'vx-gemini': GEMINI_UPSTREAM },
      priority: 20,
    });
    try {
      const reply = await fx.openai.chat.completions.create({
        model: 'vx-gemini',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(reply.choices[0]?.message.content).toBe('Hello from fake Vertex.');
      expect(fx.vertex.requests[0]?.path).toBe(vertexPath('google', GEMINI_UPSTREAM, 'generateContent'));
      expect(
        fx.vertex.oauth.lookUp(fx.vertex.requests[0]?.headers.authorization?.slice(7) ?? ''),
      ).toMatchObject({ clientEmail: elsewhere.clientEmail });
    } finally {
      await fx.gw.admin('DELETE', `/channels/${id}`);
    }
  });
});

describe('POST /api/channels/{id}/test', () => {
  it('is ok for a Gemini-first channel: a one-token generateContent', async () => {
    const probe = await fx.gw.admin('POST', `/channels/${fx.channels.vertex}/test`);
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ ok: true, error: null });
    expect(fx.vertex.requests).toHaveLength(1);
    expectVertexRequest(fx.vertex, fx.vertex.requests[0], {
      url: vertexPath('google', GEMINI_UPSTREAM, 'generateContent'),
    });
    expect(fx.vertex.requests[0]?.body).toMatchObject({ generationConfig: { maxOutputTokens: 1 } });
  });

  it('is ok for a Claude-first channel: a one-token rawPredict', async () => {
    const id = await fx.addChannel(
      disabledVertex({
        name: 'claude first',
        models: ['probe-claude', 'probe-gemini'],
        model_mapping: { 'probe-claude': CLAUDE_UPSTREAM, 'probe-gemini': GEMINI_UPSTREAM },
      }),
    );
    const probe = await fx.gw.admin('POST', `/channels/${id}/test`);
    expect(probe.body).toMatchObject({ ok: true, error: null });
    expectVertexRequest(fx.vertex, fx.vertex.requests[0], {
      url: vertexPath('anthropic', CLAUDE_UPSTREAM, 'rawPredict'),
    });
    expect(fx.vertex.requests[0]?.body).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 1,
    });
    expect(fx.vertex.requests[0]?.body).not.toHaveProperty('model');
  });

  it('is not ok when the token endpoint refuses the key, and says why without the key', async () => {
    const refused = account({ projectId: PROJECT, registered: false });
    const id = await fx.addChannel(
      disabledVertex({ name: 'refused', keys: [refused.json], models: ['vx-gemini'] }),
    );
    const probe = await fx.gw.admin('POST', `/channels/${id}/test`);
    expect(probe.status).toBe(200);
    expect(probe.body.ok).toBe(false);
    expect(probe.body.error).toContain('invalid_grant');
    expect(probe.body.error).toContain(refused.clientEmail);
    expectNoKey(JSON.stringify(probe.body), refused.json);
    expect(fx.vertex.oauth.tokenRequests).toHaveLength(1);
    expect(fx.vertex.requests).toHaveLength(0);
  });
});

describe('GET /v1/models', () => {
  it("lists a vertex channel's models by publisher, owned by vertex", async () => {
    const list = await send(fx.gw.origin, '/v1/models', { headers: bearer(fx.key) });
    expect(list.status).toBe(200);
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    expect(find('vx-claude')).toMatchObject({
      id: 'vx-claude',
      object: 'model',
      owned_by: 'vertex',
      supported_endpoint_types: ['anthropic', 'openai'],
    });
    expect(find('vx-gemini')).toMatchObject({
      id: 'vx-gemini',
      object: 'model',
      owned_by: 'vertex',
      supported_endpoint_types: ['gemini', 'openai'],
    });
  });
});
