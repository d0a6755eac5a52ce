import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/hash-key.js';
import { maskKey, stripKeyPrefix } from '../../src/auth/key-format.js';
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
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

let gateway: TestGateway;
let owner: any;
let serial = 0;

beforeAll(async () => {
  gateway = await startTestGateway();
  owner = await createUser();
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

async function createUser() {
  const response = await gateway.admin('POST', '/users', { username: `key-owner-${++serial}` });
  expect(response.status).toBe(201);
  return response.body;
}

async function createKey(fields: Record<string, unknown> = {}) {
  const response = await gateway.admin('POST', '/keys', { user_id: owner.id, ...fields });
  expect(response.status).toBe(201);
  return response.body;
}

const listModels = (key: string) =>
  fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } });

describe('keys', () => {
  it('creates a key with the documented defaults and shows it in full once', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await gateway.admin('POST', '/keys', { user_id: owner.id });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      user_id: owner.id,
      name: '',
      key: expect.stringMatching(/^sk-[A-Za-z0-9]{48}$/),
      status: 'enabled',
      expires_at: null,
      unlimited_quota: true,
      quota: 0,
      used_quota: 0,
      model_limits: null,
      ip_allow_list: null,
      group: null,
      rpm: null,
      tpm: null,
      budgets: [],
      max_concurrency: null,
      log_bodies: null,
      created_at: expect.any(Number),
    });
    expect(response.body.created_at).toBeGreaterThanOrEqual(before);
  });

  it('creates a key with every field', async () => {
    const fields = {
      name: 'ci',
      expires_at: 4_102_444_800,
      unlimited_quota: false,
      quota: 2.5,
      model_limits: ['gpt-4o', 'claude-sonnet-4'],
      ip_allow_list: ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'],
      group: 'vip',
      rpm: 60,
      tpm: 100_000,
      budgets: WIRE_BUDGETS,
      max_concurrency: 4,
      log_bodies: true,
    };
    const created = await createKey(fields);
    expect(created).toMatchObject({ ...fields, status: 'enabled', used_quota: 0 });
    const read = await gateway.admin('GET', `/keys/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ ...created, key: maskKey(created.key) });
  });

  it('generates a different key each time', async () => {
    const first = await createKey();
    const second = await createKey();
    expect(first.key).not.toBe(second.key);
  });

  describe('secrecy', () => {
    it('stores only the hash and shows only the masked hint after creation', async () => {
      const created = await createKey({ name: 'secret' });
      const fullKey: string = created.key;
      const stored = await gateway.gateway.services.repositories.keys.find(created.id);
      expect(stored?.keyHash).toBe(hashKey(stripKeyPrefix(fullKey)));
      expect(stored?.keyHint).toBe(maskKey(fullKey));

      const read = await gateway.admin('GET', `/keys/${created.id}`);
      const patched = await gateway.admin('PATCH', `/keys/${created.id}`, { name: 'renamed' });
      const listed = await gateway.admin('GET', '/keys?limit=1000');
      for (const response of [read, patched]) {
        expect(response.status).toBe(200);
        expect(response.body.key).toBe(maskKey(fullKey));
      }
      expect(listed.body.data.find((key: any) => key.id === created.id).key).toBe(maskKey(fullKey));
      const secretBody = stripKeyPrefix(fullKey);
      for (const response of [read, patched, listed]) {
        const text = JSON.stringify(response.body);
        expect(text).not.toContain(secretBody);
        expect(text).not.toContain(stored?.keyHash);
      }
      const deleted = await gateway.admin('DELETE', `/keys/${created.id}`);
      expect(deleted.body.key).toBe(maskKey(fullKey));
      expect(JSON.stringify(deleted.body)).not.toContain(stored?.keyHash);
    });
  });

  it('lists keys newest first and filters by user_id', async () => {
    const otherOwner = await createUser();
    const first = await createKey();
    const second = await gateway.admin('POST', '/keys', { user_id: otherOwner.id });
    const third = await createKey();

    const all = await gateway.admin('GET', '/keys?limit=1000');
    const ids = all.body.data.map((key: any) => key.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids.slice(0, 3)).toEqual([third.id, second.body.id, first.id]);

    const mine = await gateway.admin('GET', `/keys?user_id=${otherOwner.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((key: any) => key.id)).toEqual([second.body.id]);

    const page = await gateway.admin('GET', `/keys?user_id=${owner.id}&limit=1&offset=1`);
    expect(page.body.data.map((key: any) => key.id)).toEqual([first.id]);

    const nobody = await gateway.admin('GET', '/keys?user_id=999999');
    expect(nobody.body).toEqual({ data: [] });
  });

  it.each([['abc'], ['1.5'], ['-1']])('rejects user_id=%s as a filter', async (userId) => {
    expectError(await gateway.admin('GET', `/keys?user_id=${userId}`), 400, 'invalid_request', 'user_id');
  });

  it.each([['0'], ['5000']])('rejects limit=%s', async (limit) => {
    expectError(await gateway.admin('GET', `/keys?limit=${limit}`), 400, 'invalid_request', 'limit');
  });

  it('updates fields and clears nullable ones', async () => {
    const created = await createKey({
      model_limits: ['a'],
      ip_allow_list: ['1.2.3.4'],
      group: 'g',
      rpm: 5,
      tpm: 6,
    });
    const changed = await gateway.admin('PATCH', `/keys/${created.id}`, {
      name: 'changed',
      unlimited_quota: false,
      quota: 0.123456789,
      model_limits: null,
      ip_allow_list: null,
      group: null,
      rpm: null,
      tpm: null,
      expires_at: 4_102_444_800,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...created,
      key: maskKey(created.key),
      name: 'changed',
      unlimited_quota: false,
      quota: 0.123456789,
      model_limits: null,
      ip_allow_list: null,
      group: null,
      rpm: null,
      tpm: null,
      expires_at: 4_102_444_800,
    });
    expect((await gateway.admin('GET', `/keys/${created.id}`)).body).toEqual(changed.body);
    expect((await gateway.gateway.services.repositories.keys.find(created.id))?.quota).toBe(123_456_789);
  });

  describe('spend limits', () => {
    it('reads budgets back exactly, usd to the nano-dollar, in every read', async () => {
      const created = await createKey({ budgets: WIRE_BUDGETS, max_concurrency: 2 });
      expect(created).toMatchObject({ budgets: WIRE_BUDGETS, max_concurrency: 2 });
      const listed = await gateway.admin('GET', `/keys?user_id=${owner.id}&limit=1000`);
      expect(listed.body.data.find((key: any) => key.id === created.id)).toMatchObject({
        budgets: WIRE_BUDGETS,
        max_concurrency: 2,
      });
      const stored = await gateway.gateway.services.repositories.keys.find(created.id);
      expect(stored?.budgets.map((budget) => budget.usd)).toEqual([12_345_678_901, 1, null]);
      expect(stored?.maxConcurrency).toBe(2);
    });

    it('fills the members a budget leaves out', async () => {
      const created = await createKey({ budgets: [SHORT_BUDGET] });
      expect(created.budgets).toEqual([SHORT_BUDGET_READ]);
      expect((await gateway.gateway.services.repositories.keys.find(created.id))?.budgets[0]?.usd).toBe(
        SHORT_BUDGET_NANO_USD,
      );
    });

    it('replaces budgets and the cap on update, keeps them when left out, and clears them', async () => {
      const created = await createKey({ budgets: [SHORT_BUDGET], max_concurrency: 1 });
      const replaced = await gateway.admin('PATCH', `/keys/${created.id}`, {
        budgets: WIRE_BUDGETS,
        max_concurrency: 10,
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ budgets: WIRE_BUDGETS, max_concurrency: 10 });
      const renamed = await gateway.admin('PATCH', `/keys/${created.id}`, { name: 'renamed' });
      expect(renamed.body).toMatchObject({ budgets: WIRE_BUDGETS, max_concurrency: 10 });
      const cleared = await gateway.admin('PATCH', `/keys/${created.id}`, {
        budgets: [],
        max_concurrency: null,
      });
      expect(cleared.body).toMatchObject({ budgets: [], max_concurrency: null });
      expect((await gateway.admin('GET', `/keys/${created.id}`)).body).toEqual(cleared.body);
    });

    it.each(REFUSED_BUDGETS)('refuses %s, naming the member', async (_label, budgets, field, problem) => {
      const countBefore = (await gateway.admin('GET', '/keys?limit=1000')).body.data.length;
      expectInvalidField(
        await gateway.admin('POST', '/keys', { user_id: owner.id, budgets }),
        field,
        problem,
      );
      expect((await gateway.admin('GET', '/keys?limit=1000')).body.data.length).toBe(countBefore);

      const created = await createKey({ budgets: [SHORT_BUDGET] });
      expectInvalidField(await gateway.admin('PATCH', `/keys/${created.id}`, { budgets }), field, problem);
      expect((await gateway.admin('GET', `/keys/${created.id}`)).body.budgets).toEqual([SHORT_BUDGET_READ]);
    });

    it.each(REFUSED_MAX_CONCURRENCY)('refuses a max_concurrency of %s', async (_label, maxConcurrency) => {
      expectInvalidField(
        await gateway.admin('POST', '/keys', { user_id: owner.id, max_concurrency: maxConcurrency }),
        'max_concurrency',
      );
      const created = await createKey({ max_concurrency: 3 });
      expectInvalidField(
        await gateway.admin('PATCH', `/keys/${created.id}`, { max_concurrency: maxConcurrency }),
        'max_concurrency',
      );
      expect((await gateway.admin('GET', `/keys/${created.id}`)).body.max_concurrency).toBe(3);
    });
  });

  it('deletes a key', async () => {
    const created = await createKey();
    const deleted = await gateway.admin('DELETE', `/keys/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ...created, key: maskKey(created.key) });
    expectError(await gateway.admin('GET', `/keys/${created.id}`), 404, 'not_found');
    expectError(await gateway.admin('DELETE', `/keys/${created.id}`), 404, 'not_found');
  });

  describe('derived status', () => {
    it('reads a key past its expiry as expired', async () => {
      const created = await createKey({ expires_at: Math.floor(Date.now() / 1000) - 10 });
      expect(created.status).toBe('expired');
      expect((await gateway.admin('GET', `/keys/${created.id}`)).body.status).toBe('expired');
      expect((await listModels(created.key)).status).toBe(401);
    });

    it('reads a capped key with no quota left as exhausted', async () => {
      const created = await createKey({ unlimited_quota: false, quota: 0 });
      expect(created.status).toBe('exhausted');
      const refilled = await gateway.admin('PATCH', `/keys/${created.id}`, { quota: 1 });
      expect(refilled.body.status).toBe('enabled');
    });

    it('shows disabled over the derived states', async () => {
      const created = await createKey({ status: 'disabled', expires_at: 1 });
      expect(created.status).toBe('disabled');
    });

    it.each([['expired'], ['exhausted']])('refuses to set status %s', async (status) => {
      const created = await createKey();
      expectError(
        await gateway.admin('PATCH', `/keys/${created.id}`, { status }),
        400,
        'invalid_request',
        'status',
      );
      expectError(
        await gateway.admin('POST', '/keys', { user_id: owner.id, status }),
        400,
        'invalid_request',
        'status',
      );
    });
  });

  describe('cache invalidation', () => {
    it('a new key works at once and a disabled key fails on the very next request', async () => {
      const created = await createKey();
      expect((await listModels(created.key)).status).toBe(200);

      const disabled = await gateway.admin('PATCH', `/keys/${created.id}`, { status: 'disabled' });
      expect(disabled.body.status).toBe('disabled');
      const refused = await listModels(created.key);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as any).error.message).toContain('Invalid token');

      await gateway.admin('PATCH', `/keys/${created.id}`, { status: 'enabled' });
      expect((await listModels(created.key)).status).toBe(200);

      await gateway.admin('DELETE', `/keys/${created.id}`);
      expect((await listModels(created.key)).status).toBe(401);
    });

    it('an IP allow list change applies to the next request', async () => {
      const created = await createKey();
      expect((await listModels(created.key)).status).toBe(200);
      await gateway.admin('PATCH', `/keys/${created.id}`, { ip_allow_list: ['192.0.2.1'] });
      expect((await listModels(created.key)).status).toBe(403);
      await gateway.admin('PATCH', `/keys/${created.id}`, { ip_allow_list: ['127.0.0.0/8'] });
      expect((await listModels(created.key)).status).toBe(200);
    });
  });

  describe('validation', () => {
    it.each([
      ['a missing user_id', {}, 'user_id'],
      ['a user_id given as text', { user_id: '1' }, 'user_id'],
      ['a fractional user_id', { user_id: 1.5 }, 'user_id'],
      ['an unknown user', { user_id: 999_999 }, 'user_id'],
      ['an unknown field', { user_id: 1, label: 'x' }, 'label'],
      ['the read-only key', { user_id: 1, key: 'sk-chosen' }, 'key'],
      ['the read-only id', { user_id: 1, id: 1 }, 'id'],
      ['the read-only used_quota', { user_id: 1, used_quota: 0 }, 'used_quota'],
      ['the read-only created_at', { user_id: 1, created_at: 0 }, 'created_at'],
      ['a name that is not a string', { user_id: 1, name: 5 }, 'name'],
      ['an unknown status', { user_id: 1, status: 'paused' }, 'status'],
      ['a negative expires_at', { user_id: 1, expires_at: -1 }, 'expires_at'],
      ['a fractional expires_at', { user_id: 1, expires_at: 1.5 }, 'expires_at'],
      ['an expires_at given as text', { user_id: 1, expires_at: '2030-01-01' }, 'expires_at'],
      ['unlimited_quota given as text', { user_id: 1, unlimited_quota: 'yes' }, 'unlimited_quota'],
      ['a negative quota', { user_id: 1, quota: -0.01 }, 'quota'],
      ['a quota above the maximum', { user_id: 1, quota: MAX_USD + 1 }, 'quota'],
      ['model_limits that is not an array', { user_id: 1, model_limits: 'gpt-4o' }, 'model_limits'],
      ['an empty model limit', { user_id: 1, model_limits: [''] }, 'model_limits[0]'],
      ['an invalid IP address', { user_id: 1, ip_allow_list: ['10.0.0.1', 'not-an-ip'] }, 'ip_allow_list[1]'],
      ['an invalid CIDR prefix', { user_id: 1, ip_allow_list: ['10.0.0.0/33'] }, 'ip_allow_list[0]'],
      ['a short IPv4 form', { user_id: 1, ip_allow_list: ['127.1'] }, 'ip_allow_list[0]'],
      ['an empty group', { user_id: 1, group: '' }, 'group'],
      ['a zero rpm', { user_id: 1, rpm: 0 }, 'rpm'],
      ['a fractional rpm', { user_id: 1, rpm: 1.5 }, 'rpm'],
      ['a negative tpm', { user_id: 1, tpm: -5 }, 'tpm'],
    ])('rejects %s on create', async (_label, body, field) => {
      const countBefore = (await gateway.admin('GET', '/keys?limit=1000')).body.data.length;
      expectError(await gateway.admin('POST', '/keys', body), 400, 'invalid_request', field);
      expect((await gateway.admin('GET', '/keys?limit=1000')).body.data.length).toBe(countBefore);
    });

    it.each([
      ['user_id, which cannot change', { user_id: 2 }, 'user_id'],
      ['the read-only key', { key: 'sk-x' }, 'key'],
      ['the read-only used_quota', { used_quota: 1 }, 'used_quota'],
      ['an unknown field', { colour: 'red' }, 'colour'],
      ['a null name', { name: null }, 'name'],
      ['a null unlimited_quota', { unlimited_quota: null }, 'unlimited_quota'],
      ['an invalid IP address', { ip_allow_list: ['1.2.3.4/99'] }, 'ip_allow_list[0]'],
      ['a zero tpm', { tpm: 0 }, 'tpm'],
    ])('rejects %s on update', async (_label, body, field) => {
      const created = await createKey();
      expectError(await gateway.admin('PATCH', `/keys/${created.id}`, body), 400, 'invalid_request', field);
      expect((await gateway.admin('GET', `/keys/${created.id}`)).body).toEqual({
        ...created,
        key: maskKey(created.key),
      });
    });

    it('rejects a body that is not JSON', async () => {
      const response = await fetch(`${gateway.origin}/api/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: '{user_id: 1}',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as any).error.code).toBe('invalid_request');
    });
  });

  it.each([
    ['GET', '/keys/999999'],
    ['PATCH', '/keys/999999'],
    ['DELETE', '/keys/999999'],
    ['GET', '/keys/not-a-number'],
    ['PATCH', '/keys/1e3'],
  ])('%s %s gives 404 not_found', async (method, path) => {
    const response = await gateway.admin(method, path, method === 'PATCH' ? { name: 'x' } : undefined);
    expectError(response, 404, 'not_found');
    expect(response.body.error.message).toContain('key');
  });
});
