import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

let gateway: TestGateway;

const UPSTREAM_KEY = 'sk-upstream-abcdefghijklmnopqrstuvwxyz0123456789';
const OTHER_UPSTREAM_KEY = 'sk-ant-api03-zyxwvutsrqponmlkjihgfedcba9876543210';

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway?.close();
});

function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.type).toBe('gateway_api_error');
  if (field !== undefined) {
    expect(response.body.error.message).toContain(`"${field}`);
    expect(response.body.error.param).toBe(field.split(/[.[]/)[0]);
  }
}

const required = { name: 'primary', type: 'openai', keys: [UPSTREAM_KEY], models: ['gpt-4o'] };

async function createChannel(fields: Record<string, unknown> = {}) {
  const response = await gateway.admin('POST', '/channels', { ...required, ...fields });
  expect(response.status).toBe(201);
  return response.body;
}

describe('channels', () => {
  it('creates a channel with the documented defaults', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await gateway.admin('POST', '/channels', required);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'primary',
      type: 'openai',
      base_url: 'https://api.openai.com',
      keys: ['sk-u...6789'],
      models: ['gpt-4o'],
      model_mapping: {},
      groups: ['default'],
      priority: 0,
      weight: 1,
      endpoints: null,
      status: 'enabled',
      config: {},
      created_at: expect.any(Number),
      managed: 'api',
    });
    expect(response.body.created_at).toBeGreaterThanOrEqual(before);
    const stored = await gateway.gateway.services.repositories.channels.find(response.body.id);
    expect(stored?.baseUrl).toBeNull();
  });

  it.each([
    ['anthropic', 'https://api.anthropic.com'],
    ['gemini', 'https://generativelanguage.googleapis.com'],
  ])('shows the %s public origin when no base_url is stored', async (type, origin) => {
    const channel = await createChannel({ type });
    expect(channel.base_url).toBe(origin);
  });

  it('creates a channel with every field and stores base_url exactly as given', async () => {
    const fields = {
      name: 'claude',
      type: 'anthropic',
      base_url: 'http://127.0.0.1:9999/v1',
      keys: [UPSTREAM_KEY, OTHER_UPSTREAM_KEY],
      models: ['claude-sonnet-4', 'meta/llama-3'],
      model_mapping: { 'claude-sonnet-4': 'claude-sonnet-4-20250514', 'meta/llama-3': 'llama@v3' },
      groups: ['default', 'vip'],
      priority: -3,
      weight: 0,
      endpoints: ['anthropic', 'openai', 'image-generation'],
      status: 'auto_disabled',
      config: {},
    };
    const created = await createChannel(fields);
    expect(created).toEqual({
      ...fields,
      keys: ['sk-u...6789', 'sk-a...3210'],
      id: expect.any(Number),
      created_at: expect.any(Number),
      managed: 'api',
    });
    expect((await gateway.admin('GET', `/channels/${created.id}`)).body).toEqual(created);
    const stored = await gateway.gateway.services.repositories.channels.find(created.id);
    expect(stored?.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(stored?.keys).toEqual([UPSTREAM_KEY, OTHER_UPSTREAM_KEY]);
  });

  it('lists channels newest first with limit and offset', async () => {
    const first = await createChannel({ name: 'first' });
    const second = await createChannel({ name: 'second' });
    const all = await gateway.admin('GET', '/channels?limit=1000');
    expect(all.status).toBe(200);
    const ids = all.body.data.map((channel: any) => channel.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.body.data.slice(0, 2)).toEqual([second, first]);
    const page = await gateway.admin('GET', '/channels?limit=1&offset=1');
    expect(page.body.data).toEqual([first]);
  });

  it.each(['ollama', 'vllm'])(
    'creates a %s channel without a keys member, and one with none',
    async (type) => {
      const { keys: _keys, ...withoutKeys } = required;
      const omitted = await gateway.admin('POST', '/channels', { ...withoutKeys, type });
      expect(omitted.status).toBe(201);
      expect(omitted.body).toMatchObject({ type, keys: [] });
      const empty = await gateway.admin('POST', '/channels', { ...required, type, keys: [] });
      expect(empty.status).toBe(201);
      expect(empty.body.keys).toEqual([]);
      const patched = await gateway.admin('PATCH', `/channels/${omitted.body.id}`, { keys: [] });
      expect(patched.status).toBe(200);
    },
  );

  it.each([['0'], ['1001'], ['ten']])('rejects limit=%s', async (limit) => {
    expectError(await gateway.admin('GET', `/channels?limit=${limit}`), 400, 'invalid_request', 'limit');
  });

  it('updates only the given fields', async () => {
    const created = await createChannel();
    const response = await gateway.admin('PATCH', `/channels/${created.id}`, {
      name: 'renamed',
      priority: 10,
      weight: 5,
      groups: ['vip'],
      model_mapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
      endpoints: ['openai'],
      status: 'disabled',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...created,
      name: 'renamed',
      priority: 10,
      weight: 5,
      groups: ['vip'],
      model_mapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
      endpoints: ['openai'],
      status: 'disabled',
    });
    expect((await gateway.admin('GET', `/channels/${created.id}`)).body).toEqual(response.body);

    const reset = await gateway.admin('PATCH', `/channels/${created.id}`, {
      endpoints: null,
      base_url: 'https://proxy.example.com',
    });
    expect(reset.body.endpoints).toBeNull();
    expect(reset.body.base_url).toBe('https://proxy.example.com');
    const backToDefault = await gateway.admin('PATCH', `/channels/${created.id}`, { base_url: null });
    expect(backToDefault.body.base_url).toBe('https://api.openai.com');
  });

  it('replaces every key when keys are patched', async () => {
    const created = await createChannel({ keys: [UPSTREAM_KEY, 'another-upstream-key-0001'] });
    const response = await gateway.admin('PATCH', `/channels/${created.id}`, { keys: [OTHER_UPSTREAM_KEY] });
    expect(response.status).toBe(200);
    expect(response.body.keys).toEqual(['sk-a...3210']);
    const stored = await gateway.gateway.services.repositories.channels.find(created.id);
    expect(stored?.keys).toEqual([OTHER_UPSTREAM_KEY]);
  });

  it('never returns an upstream key in full', async () => {
    const shortKey = 'tiny-key';
    const created = await gateway.admin('POST', '/channels', { ...required, keys: [UPSTREAM_KEY, shortKey] });
    expect(created.body.keys).toEqual(['sk-u...6789', '****']);
    const patched = await gateway.admin('PATCH', `/channels/${created.body.id}`, {
      keys: [OTHER_UPSTREAM_KEY, shortKey],
    });
    const read = await gateway.admin('GET', `/channels/${created.body.id}`);
    const listed = await gateway.admin('GET', '/channels?limit=1000');
    const deleted = await gateway.admin('DELETE', `/channels/${created.body.id}`);
    expect(deleted.body.keys).toEqual(['sk-a...3210', '****']);
    for (const response of [created, patched, read, listed, deleted]) {
      const text = JSON.stringify(response.body);
      for (const secret of [UPSTREAM_KEY, OTHER_UPSTREAM_KEY, shortKey]) expect(text).not.toContain(secret);
    }
  });

  it('deletes a channel', async () => {
    const created = await createChannel();
    const deleted = await gateway.admin('DELETE', `/channels/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(created);
    expectError(await gateway.admin('GET', `/channels/${created.id}`), 404, 'not_found');
    expectError(await gateway.admin('DELETE', `/channels/${created.id}`), 404, 'not_found');
  });

  it('changes what clients can route to on the very next request', async () => {
    const user = await gateway.admin('POST', '/users', { username: 'channel-watcher' });
    const key = await gateway.admin('POST', '/keys', { user_id: user.body.id });
    await gateway.admin('PUT', '/prices/routing-probe-model', { input: 1, output: 1 });
    const visibleModels = async () => {
      const response = await fetch(`${gateway.origin}/v1/models`, {
        headers: { authorization: `Bearer ${key.body.key}` },
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as any).data.map((model: any) => model.id);
    };
    expect(await visibleModels()).not.toContain('routing-probe-model');

    const channel = await createChannel({ models: ['routing-probe-model'] });
    expect(await visibleModels()).toContain('routing-probe-model');

    await gateway.admin('PATCH', `/channels/${channel.id}`, { status: 'disabled' });
    expect(await visibleModels()).not.toContain('routing-probe-model');

    await gateway.admin('PATCH', `/channels/${channel.id}`, { status: 'enabled', groups: ['vip'] });
    expect(await visibleModels()).not.toContain('routing-probe-model');

    await gateway.admin('PATCH', `/channels/${channel.id}`, { groups: ['default'] });
    expect(await visibleModels()).toContain('routing-probe-model');

    await gateway.admin('DELETE', `/channels/${channel.id}`);
    expect(await visibleModels()).not.toContain('routing-probe-model');
  });

  describe('validation', () => {
    const without = (field: keyof typeof required) => {
      const { [field]: _removed, ...rest } = required;
      return rest;
    };

    it.each([
      ['a missing name', without('name'), 'name'],
      ['a missing type', without('type'), 'type'],
      ['a missing keys list', without('keys'), 'keys'],
      ['a missing models list', without('models'), 'models'],
      ['an empty name', { ...required, name: '' }, 'name'],
      ['an unknown type', { ...required, type: 'mistral-ai' }, 'type'],
      ['an azure channel without base_url', { ...required, type: 'azure' }, 'base_url'],
      [
        'an azure api_version that is not a version',
        {
          ...required,
          type: 'azure',
          base_url: 'https://r.openai.azure.com',
          config: { api_version: 'latest' },
        },
        'config.api_version',
      ],
      ['no key for a type that needs one', { ...required, type: 'deepseek', keys: [] }, 'keys'],
      ['a non-http base_url', { ...required, base_url: 'ftp://files.example.com' }, 'base_url'],
      ['a base_url that is not a URL', { ...required, base_url: 'api.openai.com' }, 'base_url'],
      ['an empty keys list', { ...required, keys: [] }, 'keys'],
      ['an empty key', { ...required, keys: [UPSTREAM_KEY, ''] }, 'keys[1]'],
      ['keys given as text', { ...required, keys: UPSTREAM_KEY }, 'keys'],
      ['an empty model id', { ...required, models: [''] }, 'models[0]'],
      ['a model id holding "@"', { ...required, models: ['gpt-4o@high'] }, 'models[0]'],
      [
        'a model mapping to a number',
        { ...required, model_mapping: { 'gpt-4o': 4 } },
        'model_mapping.gpt-4o',
      ],
      ['a model mapping from a modifier id', { ...required, model_mapping: { 'a@b': 'c' } }, 'model_mapping'],
      ['a model mapping that is an array', { ...required, model_mapping: ['gpt-4o'] }, 'model_mapping'],
      ['an empty groups list', { ...required, groups: [] }, 'groups'],
      ['an empty group name', { ...required, groups: [''] }, 'groups[0]'],
      ['a fractional priority', { ...required, priority: 1.5 }, 'priority'],
      ['a priority given as text', { ...required, priority: '1' }, 'priority'],
      ['a negative weight', { ...required, weight: -1 }, 'weight'],
      ['an unknown endpoint type', { ...required, endpoints: ['openai', 'fax'] }, 'endpoints[1]'],
      ['an unknown status', { ...required, status: 'paused' }, 'status'],
      ['a config that is not an object', { ...required, config: 'eu' }, 'config'],
      ['a config member the type does not take', { ...required, config: { region: 'eu' } }, 'config.region'],
      ['an unknown field', { ...required, region: 'eu' }, 'region'],
      ['the read-only id', { ...required, id: 7 }, 'id'],
      ['the read-only created_at', { ...required, created_at: 7 }, 'created_at'],
    ])('rejects %s on create', async (_label, body, field) => {
      const countBefore = (await gateway.admin('GET', '/channels?limit=1000')).body.data.length;
      expectError(await gateway.admin('POST', '/channels', body), 400, 'invalid_request', field);
      expect((await gateway.admin('GET', '/channels?limit=1000')).body.data.length).toBe(countBefore);
    });

    it.each([
      ['an empty keys list', { keys: [] }, 'keys'],
      ['a null name', { name: null }, 'name'],
      ['a null keys list', { keys: null }, 'keys'],
      ['an unknown type', { type: 'fax-machine' }, 'type'],
      ['a config member the type does not take', { config: { api_version: 'v1' } }, 'config.api_version'],
      ['an unknown field', { colour: 'red' }, 'colour'],
      ['the read-only id', { id: 1 }, 'id'],
    ])('rejects %s on update', async (_label, body, field) => {
      const created = await createChannel();
      expectError(
        await gateway.admin('PATCH', `/channels/${created.id}`, body),
        400,
        'invalid_request',
        field,
      );
      expect((await gateway.admin('GET', `/channels/${created.id}`)).body).toEqual(created);
    });
  });

  it.each([
    ['GET', '/channels/999999'],
    ['PATCH', '/channels/999999'],
    ['DELETE', '/channels/999999'],
    ['POST', '/channels/999999/test'],
    ['POST', '/channels/abc/test'],
    ['GET', '/channels/x1'],
  ])('%s %s gives 404 not_found', async (method, path) => {
    const response = await gateway.admin(method, path, method === 'PATCH' ? { name: 'x' } : undefined);
    expectError(response, 404, 'not_found');
    expect(response.body.error.message).toContain('channel');
  });
});
