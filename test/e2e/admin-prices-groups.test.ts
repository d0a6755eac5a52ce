import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_USD } from '../../src/billing/money.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

let gateway: TestGateway;

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
    expect(response.body.error.message).toContain(`"${field}"`);
    expect(response.body.error.param).toBe(field);
  }
}

describe('prices', () => {
  it('puts a price with the documented defaults', async () => {
    const response = await gateway.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      model: 'gpt-4o',
      input: 2.5,
      output: 10,
      cached_input: null,
      cache_write: null,
      per_request: null,
    });
    const stored = await gateway.gateway.services.repositories.prices.find('gpt-4o');
    expect(stored).toEqual({
      model: 'gpt-4o',
      input: 2_500_000_000,
      output: 10_000_000_000,
      cachedInput: null,
      cacheWrite: null,
      perRequest: null,
    });
  });

  it('keeps every amount exact and replaces the whole price on a second put', async () => {
    const full = { input: 0.123456789, output: 3, cached_input: 0.3, cache_write: 3.75, per_request: 0.01 };
    const first = await gateway.admin('PUT', '/prices/claude-sonnet-4', full);
    expect(first.body).toEqual({ model: 'claude-sonnet-4', ...full });
    const listed = await gateway.admin('GET', '/prices');
    expect(listed.body.data).toContainEqual({ model: 'claude-sonnet-4', ...full });

    const replaced = await gateway.admin('PUT', '/prices/claude-sonnet-4', { input: 0, output: 0 });
    expect(replaced.body).toEqual({
      model: 'claude-sonnet-4',
      input: 0,
      output: 0,
      cached_input: null,
      cache_write: null,
      per_request: null,
    });
  });

  it('accepts explicit nulls', async () => {
    const response = await gateway.admin('PUT', '/prices/nullable-model', {
      input: 1,
      output: 2,
      cached_input: null,
      cache_write: null,
      per_request: null,
    });
    expect(response.status).toBe(200);
    expect(response.body.cached_input).toBeNull();
  });

  it('takes a model id with a URL-encoded slash from the path', async () => {
    const put = await gateway.admin('PUT', '/prices/meta%2Fllama-3', { input: 0.2, output: 0.4 });
    expect(put.status).toBe(200);
    expect(put.body.model).toBe('meta/llama-3');
    expect((await gateway.gateway.services.repositories.prices.find('meta/llama-3'))?.input).toBe(
      200_000_000,
    );

    const unencoded = await gateway.admin('PUT', '/prices/meta/llama-3', { input: 0.3, output: 0.4 });
    expect(unencoded.body.model).toBe('meta/llama-3');

    const deleted = await gateway.admin('DELETE', '/prices/meta%2Fllama-3');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      model: 'meta/llama-3',
      input: 0.3,
      output: 0.4,
      cached_input: null,
      cache_write: null,
      per_request: null,
    });
    expectError(await gateway.admin('DELETE', '/prices/meta%2Fllama-3'), 404, 'not_found');
  });

  it('lists prices by model name with limit and offset', async () => {
    for (const model of ['zz-list-c', 'zz-list-a', 'zz-list-b']) {
      await gateway.admin('PUT', `/prices/${model}`, { input: 1, output: 1 });
    }
    const all = await gateway.admin('GET', '/prices?limit=1000');
    const models = all.body.data.map((price: any) => price.model);
    expect(models).toEqual([...models].sort());
    const tail = models.slice(-3);
    expect(tail).toEqual(['zz-list-a', 'zz-list-b', 'zz-list-c']);

    const page = await gateway.admin('GET', `/prices?limit=2&offset=${models.length - 3}`);
    expect(page.body.data.map((price: any) => price.model)).toEqual(['zz-list-a', 'zz-list-b']);
    expectError(await gateway.admin('GET', '/prices?limit=1001'), 400, 'invalid_request', 'limit');
    expectError(await gateway.admin('GET', '/prices?offset=-2'), 400, 'invalid_request', 'offset');
  });

  it('deletes a price', async () => {
    await gateway.admin('PUT', '/prices/to-delete', { input: 1, output: 2 });
    const deleted = await gateway.admin('DELETE', '/prices/to-delete');
    expect(deleted.status).toBe(200);
    expect(deleted.body.model).toBe('to-delete');
    expect(await gateway.gateway.services.repositories.prices.find('to-delete')).toBeUndefined();
    const response = await gateway.admin('DELETE', '/prices/to-delete');
    expectError(response, 404, 'not_found');
    expect(response.body.error.message).toContain('to-delete');
  });

  it('opens and closes a model for clients on the very next request', async () => {
    const user = await gateway.admin('POST', '/users', { username: 'price-watcher' });
    const key = await gateway.admin('POST', '/keys', { user_id: user.body.id });
    await gateway.admin('POST', '/channels', {
      name: 'llama host',
      type: 'openai',
      keys: ['upstream-key-0000000000'],
      models: ['meta/llama-3.1'],
    });
    const visibleModels = async () => {
      const response = await fetch(`${gateway.origin}/v1/models`, {
        headers: { authorization: `Bearer ${key.body.key}` },
      });
      return ((await response.json()) as any).data.map((model: any) => model.id);
    };
    expect(await visibleModels()).not.toContain('meta/llama-3.1');
    await gateway.admin('PUT', '/prices/meta%2Fllama-3.1', { input: 1, output: 1 });
    expect(await visibleModels()).toContain('meta/llama-3.1');
    await gateway.admin('DELETE', '/prices/meta%2Fllama-3.1');
    expect(await visibleModels()).not.toContain('meta/llama-3.1');
  });

  describe('validation', () => {
    it.each([
      ['a missing input', { output: 1 }, 'input'],
      ['a missing output', { input: 1 }, 'output'],
      ['a negative input', { input: -1, output: 1 }, 'input'],
      ['a negative output', { input: 1, output: -0.5 }, 'output'],
      ['an input given as text', { input: '1', output: 1 }, 'input'],
      ['an input above the maximum', { input: MAX_USD + 1, output: 1 }, 'input'],
      ['a negative cached_input', { input: 1, output: 1, cached_input: -1 }, 'cached_input'],
      ['a cache_write given as text', { input: 1, output: 1, cache_write: 'x' }, 'cache_write'],
      ['a negative per_request', { input: 1, output: 1, per_request: -0.01 }, 'per_request'],
      ['an unknown field', { input: 1, output: 1, currency: 'USD' }, 'currency'],
      ['the model in the body', { model: 'other', input: 1, output: 1 }, 'model'],
    ])('rejects %s', async (_label, body, field) => {
      expectError(await gateway.admin('PUT', '/prices/validated-model', body), 400, 'invalid_request', field);
      expect(await gateway.gateway.services.repositories.prices.find('validated-model')).toBeUndefined();
    });

    it('rejects a model id holding the modifier separator "@"', async () => {
      const response = await gateway.admin('PUT', '/prices/gpt-4o%40high', { input: 1, output: 1 });
      expectError(response, 400, 'invalid_request', 'model');
      expect(await gateway.gateway.services.repositories.prices.find('gpt-4o@high')).toBeUndefined();
    });

    it('rejects a model id over 256 characters', async () => {
      expectError(
        await gateway.admin('PUT', `/prices/${'m'.repeat(257)}`, { input: 1, output: 1 }),
        400,
        'invalid_request',
        'model',
      );
    });

    it('rejects a body that is not a JSON object', async () => {
      expectError(await gateway.admin('PUT', '/prices/validated-model', [1, 2]), 400, 'invalid_request');
    });
  });
});

describe('groups', () => {
  it('lists default with ratio 1 when nothing is stored', async () => {
    const response = await gateway.admin('GET', '/groups');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [{ name: 'default', ratio: 1 }] });
  });

  it('sets ratios and lists groups by name', async () => {
    const vip = await gateway.admin('PUT', '/groups/vip', { ratio: 0.8 });
    expect(vip.status).toBe(200);
    expect(vip.body).toEqual({ name: 'vip', ratio: 0.8 });
    const alpha = await gateway.admin('PUT', '/groups/alpha', { ratio: 0 });
    expect(alpha.body).toEqual({ name: 'alpha', ratio: 0 });

    expect((await gateway.admin('GET', '/groups')).body).toEqual({
      data: [
        { name: 'alpha', ratio: 0 },
        { name: 'default', ratio: 1 },
        { name: 'vip', ratio: 0.8 },
      ],
    });
    expect((await gateway.admin('GET', '/groups?limit=1&offset=1')).body).toEqual({
      data: [{ name: 'default', ratio: 1 }],
    });
  });

  it('replaces the default ratio once it is stored', async () => {
    const response = await gateway.admin('PUT', '/groups/default', { ratio: 1.5 });
    expect(response.body).toEqual({ name: 'default', ratio: 1.5 });
    const listed = (await gateway.admin('GET', '/groups?limit=1000')).body.data;
    expect(listed.filter((group: any) => group.name === 'default')).toEqual([
      { name: 'default', ratio: 1.5 },
    ]);
    expect(gateway.gateway.services.catalog.groupRatio('default')).toBe(1.5);
  });

  it('overwrites a ratio and applies it at once', async () => {
    await gateway.admin('PUT', '/groups/gold', { ratio: 2 });
    expect(gateway.gateway.services.catalog.groupRatio('gold')).toBe(2);
    await gateway.admin('PUT', '/groups/gold', { ratio: 0.25 });
    expect(gateway.gateway.services.catalog.groupRatio('gold')).toBe(0.25);
    expect((await gateway.admin('GET', '/groups?limit=1000')).body.data).toContainEqual({
      name: 'gold',
      ratio: 0.25,
    });
  });

  it.each([
    ['a missing ratio', {}, 'ratio'],
    ['a negative ratio', { ratio: -0.1 }, 'ratio'],
    ['a ratio given as text', { ratio: '2' }, 'ratio'],
    ['a null ratio', { ratio: null }, 'ratio'],
    ['an unknown field', { ratio: 1, note: 'x' }, 'note'],
    ['the name in the body', { name: 'other', ratio: 1 }, 'name'],
  ])('rejects %s', async (_label, body, field) => {
    expectError(await gateway.admin('PUT', '/groups/validated', body), 400, 'invalid_request', field);
    const names = (await gateway.admin('GET', '/groups?limit=1000')).body.data.map(
      (group: any) => group.name,
    );
    expect(names).not.toContain('validated');
  });

  it('rejects an invalid limit', async () => {
    expectError(await gateway.admin('GET', '/groups?limit=0'), 400, 'invalid_request', 'limit');
  });
});
