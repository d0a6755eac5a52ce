import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_USD } from '../../src/billing/money.js';
import {
  expectInvalidField,
  REFUSED_BUDGETS,
  REFUSED_MAX_CONCURRENCY,
  SHORT_BUDGET,
  SHORT_BUDGET_NANO_USD,
  SHORT_BUDGET_READ,
  WIRE_BUDGETS,
} from '../helpers/spend-limit-fixtures.js';
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
      input_audio: null,
      output_audio: null,
      per_minute: null,
      per_million_characters: null,
      managed: 'api',
    });
    const stored = await gateway.gateway.services.repositories.prices.find('gpt-4o');
    expect(stored).toEqual({
      model: 'gpt-4o',
      input: 2_500_000_000,
      output: 10_000_000_000,
      cachedInput: null,
      cacheWrite: null,
      perRequest: null,
      inputAudio: null,
      outputAudio: null,
      perMinute: null,
      perMillionCharacters: null,
    });
  });

  it('keeps every amount exact and replaces the whole price on a second put', async () => {
    const full = {
      input: 0.123456789,
      output: 3,
      cached_input: 0.3,
      cache_write: 3.75,
      per_request: 0.01,
      input_audio: 40,
      output_audio: 80,
      per_minute: 0.006,
      per_million_characters: 15,
    };
    const first = await gateway.admin('PUT', '/prices/claude-sonnet-4', full);
    expect(first.body).toEqual({ model: 'claude-sonnet-4', ...full, managed: 'api' });
    const listed = await gateway.admin('GET', '/prices');
    expect(listed.body.data).toContainEqual({ model: 'claude-sonnet-4', ...full, managed: 'api' });

    const replaced = await gateway.admin('PUT', '/prices/claude-sonnet-4', { input: 0, output: 0 });
    expect(replaced.body).toEqual({
      model: 'claude-sonnet-4',
      input: 0,
      output: 0,
      cached_input: null,
      cache_write: null,
      per_request: null,
      input_audio: null,
      output_audio: null,
      per_minute: null,
      per_million_characters: null,
      managed: 'api',
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
      input_audio: null,
      output_audio: null,
      per_minute: null,
      per_million_characters: null,
      managed: 'api',
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
  /** How reads show a group: its ratio, and no spend limits unless some were set. */
  const group = (
    name: string,
    ratio: number,
    limits: { budgets?: unknown[]; max_concurrency?: number } = {},
  ) => ({
    name,
    ratio,
    budgets: limits.budgets ?? [],
    max_concurrency: limits.max_concurrency ?? null,
    log_bodies: false,
    managed: 'api',
  });

  it('lists default with ratio 1 and no spend limits when nothing is stored', async () => {
    const response = await gateway.admin('GET', '/groups');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [group('default', 1)] });
  });

  it('sets ratios and lists groups by name', async () => {
    const vip = await gateway.admin('PUT', '/groups/vip', { ratio: 0.8 });
    expect(vip.status).toBe(200);
    expect(vip.body).toEqual(group('vip', 0.8));
    const alpha = await gateway.admin('PUT', '/groups/alpha', { ratio: 0 });
    expect(alpha.body).toEqual(group('alpha', 0));

    expect((await gateway.admin('GET', '/groups')).body).toEqual({
      data: [group('alpha', 0), group('default', 1), group('vip', 0.8)],
    });
    expect((await gateway.admin('GET', '/groups?limit=1&offset=1')).body).toEqual({
      data: [group('default', 1)],
    });
  });

  it('replaces the default ratio once it is stored', async () => {
    const response = await gateway.admin('PUT', '/groups/default', { ratio: 1.5 });
    expect(response.body).toEqual(group('default', 1.5));
    const listed = (await gateway.admin('GET', '/groups?limit=1000')).body.data;
    expect(listed.filter((each: any) => each.name === 'default')).toEqual([group('default', 1.5)]);
    expect(gateway.gateway.services.catalog.groupRatio('default')).toBe(1.5);
  });

  it('overwrites a ratio and applies it at once', async () => {
    await gateway.admin('PUT', '/groups/gold', { ratio: 2 });
    expect(gateway.gateway.services.catalog.groupRatio('gold')).toBe(2);
    await gateway.admin('PUT', '/groups/gold', { ratio: 0.25 });
    expect(gateway.gateway.services.catalog.groupRatio('gold')).toBe(0.25);
    expect((await gateway.admin('GET', '/groups?limit=1000')).body.data).toContainEqual(group('gold', 0.25));
  });

  describe('spend limits', () => {
    it('creates a group from the defaults and the members given, and lists it whole', async () => {
      const created = await gateway.admin('PUT', '/groups/team-new', { budgets: WIRE_BUDGETS });
      expect(created.status).toBe(200);
      expect(created.body).toEqual(group('team-new', 1, { budgets: WIRE_BUDGETS }));
      expect((await gateway.admin('GET', '/groups?limit=1000')).body.data).toContainEqual(created.body);
      const stored = await gateway.gateway.services.repositories.groups.find('team-new');
      expect(stored?.budgets.map((budget) => budget.usd)).toEqual([12_345_678_901, 1, null]);
    });

    it('keeps every member a PUT leaves out', async () => {
      const first = await gateway.admin('PUT', '/groups/team-keep', { ratio: 0.5, max_concurrency: 7 });
      expect(first.body).toEqual(group('team-keep', 0.5, { max_concurrency: 7 }));
      const budgets = await gateway.admin('PUT', '/groups/team-keep', { budgets: [SHORT_BUDGET] });
      expect(budgets.body).toEqual(
        group('team-keep', 0.5, { budgets: [SHORT_BUDGET_READ], max_concurrency: 7 }),
      );
      const ratio = await gateway.admin('PUT', '/groups/team-keep', { ratio: 2 });
      expect(ratio.body).toEqual(group('team-keep', 2, { budgets: [SHORT_BUDGET_READ], max_concurrency: 7 }));
      expect(gateway.gateway.services.catalog.groupRatio('team-keep')).toBe(2);
      const nothing = await gateway.admin('PUT', '/groups/team-keep', {});
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(ratio.body);
      expect((await gateway.admin('GET', '/groups?limit=1000')).body.data).toContainEqual(ratio.body);
    });

    it('clears budgets and the cap when given empty and null', async () => {
      await gateway.admin('PUT', '/groups/team-clear', { budgets: [SHORT_BUDGET], max_concurrency: 3 });
      const cleared = await gateway.admin('PUT', '/groups/team-clear', {
        budgets: [],
        max_concurrency: null,
      });
      expect(cleared.body).toEqual(group('team-clear', 1));
      const stored = await gateway.gateway.services.repositories.groups.find('team-clear');
      expect(stored).toEqual({
        name: 'team-clear',
        ratio: 1,
        budgets: [],
        maxConcurrency: null,
        logBodies: false,
      });
    });

    it('takes an empty body for a new group: the defaults', async () => {
      const created = await gateway.admin('PUT', '/groups/team-empty', {});
      expect(created.status).toBe(200);
      expect(created.body).toEqual(group('team-empty', 1));
      expect((await gateway.admin('GET', '/groups?limit=1000')).body.data).toContainEqual(created.body);
    });

    it.each(REFUSED_BUDGETS)('refuses %s, naming the member', async (_label, budgets, field, problem) => {
      await gateway.admin('PUT', '/groups/team-refused', { budgets: [SHORT_BUDGET], max_concurrency: 2 });
      expectInvalidField(
        await gateway.admin('PUT', '/groups/team-refused', { ratio: 3, budgets }),
        field,
        problem,
      );
      expect(await gateway.gateway.services.repositories.groups.find('team-refused')).toMatchObject({
        ratio: 1,
        budgets: [{ period: 'week', usd: SHORT_BUDGET_NANO_USD }],
        maxConcurrency: 2,
      });
    });

    it.each(REFUSED_MAX_CONCURRENCY)('refuses a max_concurrency of %s', async (_label, maxConcurrency) => {
      expectInvalidField(
        await gateway.admin('PUT', '/groups/team-unstored', { max_concurrency: maxConcurrency }),
        'max_concurrency',
      );
      expect(await gateway.gateway.services.repositories.groups.find('team-unstored')).toBeUndefined();
    });
  });

  it.each([
    ['a negative ratio', { ratio: -0.1 }, 'ratio'],
    ['a ratio given as text', { ratio: '2' }, 'ratio'],
    ['a null ratio', { ratio: null }, 'ratio'],
    ['an unknown field', { ratio: 1, note: 'x' }, 'note'],
    ['the name in the body', { name: 'other', ratio: 1 }, 'name'],
  ])('rejects %s', async (_label, body, field) => {
    expectError(await gateway.admin('PUT', '/groups/validated', body), 400, 'invalid_request', field);
    const names = (await gateway.admin('GET', '/groups?limit=1000')).body.data.map((each: any) => each.name);
    expect(names).not.toContain('validated');
  });

  it('rejects an invalid limit', async () => {
    expectError(await gateway.admin('GET', '/groups?limit=0'), 400, 'invalid_request', 'limit');
  });
});
