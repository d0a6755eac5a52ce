import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_USD } from '../../src/billing/money.js';
import { verifyPassword } from '../../src/auth/password-hash.js';
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
let serial = 0;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway?.close();
});

const uniqueName = (prefix = 'user') => `${prefix}-${++serial}`;

function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.type).toBe('gateway_api_error');
  if (field !== undefined) {
    expect(response.body.error.message).toContain(`"${field}"`);
    expect(response.body.error.param).toBe(field.split(/[.[]/)[0]);
  }
}

async function createUser(fields: Record<string, unknown> = {}) {
  const response = await gateway.admin('POST', '/users', { username: uniqueName(), ...fields });
  expect(response.status).toBe(201);
  return response.body;
}

async function rawRequest(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string },
) {
  const response = await fetch(`${gateway.origin}/api${path}`, { method, ...init });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('admin authentication', () => {
  const unauthorizedBody = {
    error: { message: expect.any(String), type: 'gateway_api_error', param: '', code: 'unauthorized' },
  };

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token' }],
    ['the right token under another scheme', { authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
  ])('answers 401 unauthorized to %s', async (_label, headers) => {
    const response = await rawRequest('GET', '/users', { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody);
  });

  it.each([
    ['GET', '/users/1'],
    ['POST', '/keys'],
    ['PATCH', '/channels/1'],
    ['PUT', '/prices/some-model'],
    ['GET', '/groups'],
    ['PATCH', '/settings'],
    ['GET', '/logs'],
  ])('guards %s %s', async (method, path) => {
    const response = await rawRequest(method, path, {
      headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json' },
      body: method === 'GET' ? undefined : '{}',
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody);
  });

  it('makes no change for an unauthorized write', async () => {
    const username = uniqueName('intruder');
    const response = await rawRequest('POST', '/users', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username }),
    });
    expect(response.status).toBe(401);
    expect(await gateway.gateway.services.repositories.users.findByUsername(username)).toBeUndefined();
  });

  it('accepts the bearer scheme in any case', async () => {
    const response = await rawRequest('GET', '/users', {
      headers: { authorization: `bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('users', () => {
  it('creates a user with the documented defaults', async () => {
    const username = uniqueName();
    const before = Math.floor(Date.now() / 1000);
    const response = await gateway.admin('POST', '/users', { username });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(Number),
      username,
      role: 'user',
      group: 'default',
      balance: 0,
      used: 0,
      language: null,
      status: 'enabled',
      budgets: [],
      max_concurrency: null,
      low_balance_alert: null,
      created_at: expect.any(Number),
    });
    expect(response.body.created_at).toBeGreaterThanOrEqual(before);
    expect(response.body.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('creates a user with every field and reads it back', async () => {
    const fields = {
      username: uniqueName(),
      password: 'correct horse battery staple',
      role: 'admin',
      group: 'vip',
      balance: 12.5,
      language: 'zh-CN',
      status: 'disabled',
      budgets: WIRE_BUDGETS,
      max_concurrency: 6,
      low_balance_alert: 1.000000001,
    };
    const created = await gateway.admin('POST', '/users', fields);
    expect(created.status).toBe(201);
    const { password: _password, ...visible } = fields;
    expect(created.body).toMatchObject({ ...visible, used: 0 });
    expect(created.body).not.toHaveProperty('password');

    const read = await gateway.admin('GET', `/users/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('lists users newest first with limit and offset', async () => {
    const first = await createUser();
    const second = await createUser();
    const third = await createUser();

    const all = await gateway.admin('GET', '/users?limit=1000');
    expect(all.status).toBe(200);
    const ids = all.body.data.map((user: any) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids.slice(0, 3)).toEqual([third.id, second.id, first.id]);
    expect(all.body.data[0]).toEqual(third);

    const page = await gateway.admin('GET', '/users?limit=2&offset=1&unknown=ignored');
    expect(page.status).toBe(200);
    expect(page.body.data.map((user: any) => user.id)).toEqual([second.id, first.id]);
  });

  it('returns 100 users when no limit is given', async () => {
    const repository = gateway.gateway.services.repositories.users;
    const existing = (await repository.list({ limit: 1000, offset: 0 })).length;
    for (let index = existing; index < 101; index += 1) {
      await repository.create({
        username: uniqueName('bulk'),
        passwordHash: null,
        role: 'user',
        group: 'default',
        balance: 0,
        language: null,
        status: 'enabled',
      });
    }
    const response = await gateway.admin('GET', '/users');
    expect(response.body.data).toHaveLength(100);
  });

  it.each([['0'], ['1001'], ['abc'], ['-1'], ['1.5'], ['']])('rejects limit=%s', async (limit) => {
    expectError(await gateway.admin('GET', `/users?limit=${limit}`), 400, 'invalid_request', 'limit');
  });

  it.each([['-1'], ['x'], ['2.5']])('rejects offset=%s', async (offset) => {
    expectError(await gateway.admin('GET', `/users?offset=${offset}`), 400, 'invalid_request', 'offset');
  });

  it('updates only the given fields', async () => {
    const user = await createUser({ balance: 3 });
    const response = await gateway.admin('PATCH', `/users/${user.id}`, {
      role: 'admin',
      group: 'gold',
      language: 'en',
      status: 'disabled',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...user,
      role: 'admin',
      group: 'gold',
      language: 'en',
      status: 'disabled',
    });
    expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(response.body);

    const cleared = await gateway.admin('PATCH', `/users/${user.id}`, { language: null });
    expect(cleared.body.language).toBeNull();
    const unchanged = await gateway.admin('PATCH', `/users/${user.id}`, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(cleared.body);
  });

  describe('spend limits', () => {
    it('reads budgets and the low-balance alert back exactly, to the nano-dollar', async () => {
      const created = await createUser({
        budgets: WIRE_BUDGETS,
        max_concurrency: 1,
        low_balance_alert: 0.000000001,
      });
      expect(created).toMatchObject({
        budgets: WIRE_BUDGETS,
        max_concurrency: 1,
        low_balance_alert: 0.000000001,
      });
      const listed = await gateway.admin('GET', '/users?limit=1000');
      expect(listed.body.data.find((user: any) => user.id === created.id)).toEqual(created);
      const stored = await gateway.gateway.services.repositories.users.find(created.id);
      expect(stored).toMatchObject({ lowBalanceAlert: 1, maxConcurrency: 1 });
      expect(stored?.budgets.map((budget) => budget.usd)).toEqual([12_345_678_901, 1, null]);
    });

    it('fills the members a budget leaves out', async () => {
      const created = await createUser({ budgets: [SHORT_BUDGET] });
      expect(created.budgets).toEqual([SHORT_BUDGET_READ]);
      const stored = await gateway.gateway.services.repositories.users.find(created.id);
      expect(stored?.budgets[0]?.usd).toBe(SHORT_BUDGET_NANO_USD);
    });

    it('changes the limits on update, keeps them when left out, and clears them', async () => {
      const user = await createUser({ budgets: [SHORT_BUDGET], max_concurrency: 2, low_balance_alert: 5 });
      const changed = await gateway.admin('PATCH', `/users/${user.id}`, {
        budgets: WIRE_BUDGETS,
        low_balance_alert: 12.345678901,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        ...user,
        budgets: WIRE_BUDGETS,
        low_balance_alert: 12.345678901,
      });
      const renamed = await gateway.admin('PATCH', `/users/${user.id}`, { group: 'team' });
      expect(renamed.body).toEqual({ ...changed.body, group: 'team' });
      const cleared = await gateway.admin('PATCH', `/users/${user.id}`, {
        budgets: [],
        max_concurrency: null,
        low_balance_alert: null,
      });
      expect(cleared.body).toEqual({
        ...renamed.body,
        budgets: [],
        max_concurrency: null,
        low_balance_alert: null,
      });
      expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(cleared.body);
    });

    it.each(REFUSED_BUDGETS)('refuses %s, naming the member', async (_label, budgets, field, problem) => {
      const username = uniqueName('refused');
      expectInvalidField(await gateway.admin('POST', '/users', { username, budgets }), field, problem);
      expect(await gateway.gateway.services.repositories.users.findByUsername(username)).toBeUndefined();

      const user = await createUser({ budgets: [SHORT_BUDGET] });
      expectInvalidField(await gateway.admin('PATCH', `/users/${user.id}`, { budgets }), field, problem);
      expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(user);
    });

    it.each(REFUSED_MAX_CONCURRENCY)('refuses a max_concurrency of %s', async (_label, maxConcurrency) => {
      expectInvalidField(
        await gateway.admin('POST', '/users', { username: uniqueName(), max_concurrency: maxConcurrency }),
        'max_concurrency',
      );
      const user = await createUser({ max_concurrency: 3 });
      expectInvalidField(
        await gateway.admin('PATCH', `/users/${user.id}`, { max_concurrency: maxConcurrency }),
        'max_concurrency',
      );
      expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(user);
    });

    it.each([
      ['a negative amount', -0.01],
      ['text', '5'],
      ['an amount above the maximum', MAX_USD + 1],
    ])('refuses a low_balance_alert of %s', async (_label, lowBalanceAlert) => {
      expectInvalidField(
        await gateway.admin('POST', '/users', { username: uniqueName(), low_balance_alert: lowBalanceAlert }),
        'low_balance_alert',
      );
      const user = await createUser({ low_balance_alert: 1 });
      expectInvalidField(
        await gateway.admin('PATCH', `/users/${user.id}`, { low_balance_alert: lowBalanceAlert }),
        'low_balance_alert',
      );
      expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(user);
    });
  });

  it('deletes a user and its keys', async () => {
    const user = await createUser();
    const key = await gateway.admin('POST', '/keys', { user_id: user.id });
    expect(key.status).toBe(201);

    const deleted = await gateway.admin('DELETE', `/users/${user.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(user);
    expectError(await gateway.admin('GET', `/users/${user.id}`), 404, 'not_found');
    expectError(await gateway.admin('GET', `/keys/${key.body.id}`), 404, 'not_found');
    expectError(await gateway.admin('DELETE', `/users/${user.id}`), 404, 'not_found');
  });

  it('refuses a duplicate username on create and update', async () => {
    const taken = await createUser();
    expectError(
      await gateway.admin('POST', '/users', { username: taken.username }),
      400,
      'invalid_request',
      'username',
    );

    const other = await createUser();
    expectError(
      await gateway.admin('PATCH', `/users/${other.id}`, { username: taken.username }),
      400,
      'invalid_request',
      'username',
    );
    const same = await gateway.admin('PATCH', `/users/${taken.id}`, { username: taken.username });
    expect(same.status).toBe(200);
  });

  describe('validation', () => {
    it.each([
      ['a missing username', {}, 'username'],
      ['an empty username', { username: '' }, 'username'],
      ['a username over 64 characters', { username: 'x'.repeat(65) }, 'username'],
      ['a username that is not a string', { username: 42 }, 'username'],
      ['an unknown field', { username: 'ok-name', nickname: 'x' }, 'nickname'],
      ['an unknown role', { username: 'ok-name', role: 'root' }, 'role'],
      ['an empty group', { username: 'ok-name', group: '' }, 'group'],
      ['a balance given as text', { username: 'ok-name', balance: '5' }, 'balance'],
      ['a balance above the maximum', { username: 'ok-name', balance: MAX_USD + 1 }, 'balance'],
      ['a balance below the negative maximum', { username: 'ok-name', balance: -MAX_USD - 1 }, 'balance'],
      ['an unknown language', { username: 'ok-name', language: 'fr' }, 'language'],
      ['an unknown status', { username: 'ok-name', status: 'banned' }, 'status'],
      ['an empty password', { username: 'ok-name', password: '' }, 'password'],
      ['a password that is not a string', { username: 'ok-name', password: 1234 }, 'password'],
      ['the read-only id', { username: 'ok-name', id: 5 }, 'id'],
      ['the read-only used', { username: 'ok-name', used: 1 }, 'used'],
      ['the read-only created_at', { username: 'ok-name', created_at: 1 }, 'created_at'],
    ])('rejects %s on create', async (_label, body, field) => {
      expectError(await gateway.admin('POST', '/users', body), 400, 'invalid_request', field);
      expect(await gateway.gateway.services.repositories.users.findByUsername('ok-name')).toBeUndefined();
    });

    it('says a missing field is required', async () => {
      const response = await gateway.admin('POST', '/users', {});
      expect(response.body.error.message).toContain('field "username": is required');
    });

    it.each([
      ['an unknown field', { nickname: 'x' }, 'nickname'],
      ['a null username', { username: null }, 'username'],
      ['a null balance', { balance: null }, 'balance'],
      ['a wrong role', { role: 'owner' }, 'role'],
      ['the read-only used', { used: 0 }, 'used'],
      ['the read-only id', { id: 1 }, 'id'],
    ])('rejects %s on update', async (_label, body, field) => {
      const user = await createUser();
      expectError(await gateway.admin('PATCH', `/users/${user.id}`, body), 400, 'invalid_request', field);
      expect((await gateway.admin('GET', `/users/${user.id}`)).body).toEqual(user);
    });

    it.each([
      ['invalid JSON', '{"username": '],
      ['an array', '[]'],
      ['null', 'null'],
      ['a string', '"text"'],
      ['an empty body', ''],
    ])('rejects %s as the body', async (_label, body) => {
      const response = await rawRequest('POST', '/users', {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body,
      });
      expectError(response, 400, 'invalid_request');
    });
  });

  describe('not found', () => {
    it.each([
      ['GET', '/users/999999'],
      ['PATCH', '/users/999999'],
      ['DELETE', '/users/999999'],
      ['POST', '/users/999999/topup'],
      ['GET', '/users/abc'],
      ['GET', '/users/1.5'],
      ['PATCH', '/users/-1'],
      ['DELETE', '/users/0'],
    ])('%s %s gives 404 not_found', async (method, path) => {
      const body = method === 'PATCH' ? { group: 'x' } : method === 'POST' ? { amount: 1 } : undefined;
      const response = await gateway.admin(method, path, body);
      expectError(response, 404, 'not_found');
      expect(response.body.error.message).toContain('user');
    });
  });

  describe('money', () => {
    it('keeps a balance exact to the nano-dollar', async () => {
      const user = await createUser({ balance: 0.123456789 });
      expect(user.balance).toBe(0.123456789);
      expect((await gateway.admin('GET', `/users/${user.id}`)).body.balance).toBe(0.123456789);
      expect((await gateway.gateway.services.repositories.users.find(user.id))?.balance).toBe(123_456_789);

      const patched = await gateway.admin('PATCH', `/users/${user.id}`, { balance: 1234567.000000001 });
      expect(patched.body.balance).toBe(1234567.000000001);
    });

    it('accepts the largest balance', async () => {
      const user = await createUser({ balance: MAX_USD });
      expect(user.balance).toBe(MAX_USD);
    });

    it('tops up ten times 0.1 to exactly 1', async () => {
      const user = await createUser();
      let last: any;
      for (let index = 0; index < 10; index += 1) {
        last = await gateway.admin('POST', `/users/${user.id}/topup`, { amount: 0.1 });
        expect(last.status).toBe(200);
      }
      expect(last.body).toEqual({ ...user, balance: 1 });
      expect((await gateway.admin('GET', `/users/${user.id}`)).body.balance).toBe(1);
    });

    it('applies concurrent top-ups without losing one', async () => {
      const user = await createUser();
      await Promise.all(
        Array.from({ length: 20 }, () => gateway.admin('POST', `/users/${user.id}/topup`, { amount: 0.05 })),
      );
      expect((await gateway.admin('GET', `/users/${user.id}`)).body.balance).toBe(1);
    });

    it.each([
      ['zero', { amount: 0 }, 'amount'],
      ['a negative amount', { amount: -1 }, 'amount'],
      ['an amount below one nano-dollar', { amount: 1e-10 }, 'amount'],
      ['an amount given as text', { amount: '1' }, 'amount'],
      ['a missing amount', {}, 'amount'],
      ['an amount above the maximum', { amount: MAX_USD + 1 }, 'amount'],
      ['an unknown field', { amount: 1, note: 'x' }, 'note'],
    ])('rejects a top-up of %s', async (_label, body, field) => {
      const user = await createUser({ balance: 2 });
      expectError(
        await gateway.admin('POST', `/users/${user.id}/topup`, body),
        400,
        'invalid_request',
        field,
      );
      expect((await gateway.admin('GET', `/users/${user.id}`)).body.balance).toBe(2);
    });

    it('refuses a top-up that would pass the maximum balance', async () => {
      const user = await createUser({ balance: MAX_USD - 1 });
      expectError(
        await gateway.admin('POST', `/users/${user.id}/topup`, { amount: 2 }),
        400,
        'invalid_request',
        'amount',
      );
    });
  });

  describe('passwords', () => {
    it('stores a slow salted hash and never returns it', async () => {
      const created = await gateway.admin('POST', '/users', {
        username: uniqueName(),
        password: 's3cret-pass',
      });
      const text = JSON.stringify(created.body);
      const stored = await gateway.gateway.services.repositories.users.find(created.body.id);
      expect(stored?.passwordHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
      expect(text).not.toContain('s3cret-pass');
      expect(text).not.toContain(stored?.passwordHash);
      expect(await verifyPassword('s3cret-pass', stored?.passwordHash ?? '')).toBe(true);
      expect(await verifyPassword('wrong-pass', stored?.passwordHash ?? '')).toBe(false);

      const listed = await gateway.admin('GET', '/users?limit=1000');
      expect(JSON.stringify(listed.body)).not.toContain('scrypt$');
    });

    it('salts each hash differently', async () => {
      const first = await createUser({ password: 'same-password' });
      const second = await createUser({ password: 'same-password' });
      const repository = gateway.gateway.services.repositories.users;
      expect((await repository.find(first.id))?.passwordHash).not.toBe(
        (await repository.find(second.id))?.passwordHash,
      );
    });

    it('changes the password on update', async () => {
      const user = await createUser({ password: 'old-password' });
      const response = await gateway.admin('PATCH', `/users/${user.id}`, { password: 'new-password' });
      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty('password');
      const stored = await gateway.gateway.services.repositories.users.find(user.id);
      expect(await verifyPassword('new-password', stored?.passwordHash ?? '')).toBe(true);
      expect(await verifyPassword('old-password', stored?.passwordHash ?? '')).toBe(false);
    });
  });

  it("disabling a user makes the user's keys fail on the very next request", async () => {
    const user = await createUser();
    const key = await gateway.admin('POST', '/keys', { user_id: user.id });
    const listModels = () =>
      fetch(`${gateway.origin}/v1/models`, { headers: { authorization: `Bearer ${key.body.key}` } });
    expect((await listModels()).status).toBe(200);

    await gateway.admin('PATCH', `/users/${user.id}`, { status: 'disabled' });
    expect((await listModels()).status).toBe(401);

    await gateway.admin('PATCH', `/users/${user.id}`, { status: 'enabled' });
    expect((await listModels()).status).toBe(200);

    await gateway.admin('DELETE', `/users/${user.id}`);
    expect((await listModels()).status).toBe(401);
  });
});
