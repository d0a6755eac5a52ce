import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  expectApiError,
  signedInClient,
  signIn,
  type ConsoleClient,
  type ErrorBody,
} from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import {
  expectInvalidField,
  REFUSED_BUDGETS,
  REFUSED_MAX_CONCURRENCY,
  SHORT_BUDGET,
  SHORT_BUDGET_READ,
  WIRE_BUDGETS,
} from '../helpers/spend-limit-fixtures.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

const PASSWORD = 'self service password';

const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

interface KeyView {
  id: number;
  user_id: number;
  key: string;
  name: string;
}

describe.each(gatewayVariants())('self-service and role checks on $name', (variant) => {
  let gw: TestGateway;
  let user: { id: number; username: string };
  let client: ConsoleClient;
  let channelId: number;

  beforeAll(async () => {
    gw = await variant.start();
    const created = await gw.admin('POST', '/users', { username: uniqueName('self'), password: PASSWORD });
    user = created.body;
    client = await signedInClient(gw, { username: user.username, password: PASSWORD });
    const channel = await gw.admin('POST', '/channels', {
      name: 'c',
      type: 'openai',
      base_url: 'http://127.0.0.1:9',
      keys: ['sk-upstream'],
      models: ['gpt-4o'],
    });
    channelId = channel.body.id;
    await gw.admin('PUT', '/prices/gpt-4o', { input: 1, output: 1 });
  });

  afterAll(async () => {
    await gw?.close();
  });

  async function otherUserKey(): Promise<KeyView> {
    const other = await gw.admin('POST', '/users', { username: uniqueName('other') });
    return (await gw.admin('POST', '/keys', { user_id: other.body.id, name: 'theirs' })).body;
  }

  describe('a user session outside /api/me', () => {
    const adminPaths = (ids: { user: number; key: number; channel: number }): [string, string, unknown][] => [
      ['GET', '/users', undefined],
      ['GET', `/users/${ids.user}`, undefined],
      ['POST', '/users', { username: uniqueName('sneaky') }],
      ['PATCH', `/users/${ids.user}`, { role: 'admin' }],
      ['DELETE', `/users/${ids.user}`, undefined],
      ['POST', `/users/${ids.user}/topup`, { amount: 1000 }],
      ['GET', '/keys', undefined],
      ['GET', `/keys/${ids.key}`, undefined],
      ['POST', '/keys', { user_id: ids.user }],
      ['PATCH', `/keys/${ids.key}`, { name: 'renamed' }],
      ['DELETE', `/keys/${ids.key}`, undefined],
      ['GET', '/channels', undefined],
      ['POST', '/channels', { name: 'x', type: 'openai', keys: ['k'], models: ['m'] }],
      ['GET', `/channels/${ids.channel}`, undefined],
      ['GET', `/channels/${ids.channel}/health`, undefined],
      ['GET', `/channels/${ids.channel}/stats`, undefined],
      ['POST', `/channels/${ids.channel}/test`, undefined],
      ['GET', '/prices', undefined],
      ['PUT', '/prices/gpt-4o', { input: 0, output: 0 }],
      ['DELETE', '/prices/gpt-4o', undefined],
      ['GET', '/groups', undefined],
      ['PUT', '/groups/default', { ratio: 1 }],
      ['GET', '/settings', undefined],
      ['PATCH', '/settings', { retry_times: 0 }],
      ['GET', '/logs', undefined],
      ['GET', '/stats', undefined],
    ];

    it('gets 403 forbidden on every management path, even for its own user and key, and changes nothing', async () => {
      const own = (await client.call<KeyView>('POST', '/me/keys', { body: { name: 'own' } })).body;
      const ids = { user: user.id, key: own.id, channel: channelId };
      for (const [method, path, body] of adminPaths(ids)) {
        const response = await client.call(method, path, { body });
        expectApiError(response, 403, 'forbidden');
        expect((response.body as ErrorBody).error.message).toContain(`${method} /api${path}`);
      }
      const after = await gw.admin('GET', `/users/${user.id}`);
      expect(after.body).toMatchObject({ role: 'user', balance: 0, status: 'enabled' });
      expect((await gw.admin('GET', `/keys/${own.id}`)).body).toMatchObject({ name: 'own' });
      expect((await gw.admin('GET', '/prices')).body.data).toHaveLength(1);
      expect((await gw.admin('GET', '/settings')).body.retry_times).toBe(2);
    });

    it('is allowed to an admin user’s session', async () => {
      const admin = await gw.admin('POST', '/users', {
        username: uniqueName('admin'),
        password: PASSWORD,
        role: 'admin',
      });
      const adminClient = await signedInClient(gw, { username: admin.body.username, password: PASSWORD });
      const target = await gw.admin('POST', '/users', { username: uniqueName('target') });
      const key = (await gw.admin('POST', '/keys', { user_id: target.body.id })).body;
      for (const [method, path, body] of adminPaths({
        user: target.body.id,
        key: key.id,
        channel: channelId,
      })) {
        // Deleting the user first would turn the calls after it into 404s.
        if (method === 'DELETE' && path.startsWith('/users')) continue;
        const response = await adminClient.call(method, path, { body });
        expect([200, 201, 204], `${method} ${path}: ${JSON.stringify(response.body)}`).toContain(
          response.status,
        );
      }
    });
  });

  describe('/api/me', () => {
    it('reads the caller’s own account', async () => {
      const response = await client.call('GET', '/me');
      expect(response).toMatchObject({
        status: 200,
        body: { id: user.id, username: user.username, role: 'user', root: false },
      });
    });

    it('changes the language, which then applies to the caller’s error messages', async () => {
      const response = await client.call('PATCH', '/me', { body: { language: 'zh-CN' } });
      expect(response).toMatchObject({ status: 200, body: { id: user.id, language: 'zh-CN' } });
      expect((await gw.admin('GET', `/users/${user.id}`)).body.language).toBe('zh-CN');
      const refused = await client.call('GET', '/users');
      expect((refused.body as ErrorBody).error.message).toContain('当前账户无权访问');
      await client.call('PATCH', '/me', { body: { language: null } });
      expect((await client.call('GET', '/me')).body).toMatchObject({ language: null });
    });

    it('changes the password: the new one signs in, the old one no longer does', async () => {
      const own = await gw.admin('POST', '/users', { username: uniqueName('pw'), password: PASSWORD });
      const session = await signedInClient(gw, { username: own.body.username, password: PASSWORD });
      expect((await session.call('PATCH', '/me', { body: { password: 'brand new secret' } })).status).toBe(
        200,
      );
      expectApiError(
        await signIn(gw, { username: own.body.username, password: PASSWORD }),
        401,
        'invalid_credentials',
      );
      expect((await signIn(gw, { username: own.body.username, password: 'brand new secret' })).status).toBe(
        200,
      );
    });

    it.each([
      [{ balance: 100 }, 'balance'],
      [{ role: 'admin' }, 'role'],
      [{ status: 'enabled' }, 'status'],
      [{ group: 'vip' }, 'group'],
      [{ username: 'renamed' }, 'username'],
      [{ used: 0 }, 'used'],
      [{ language: 'fr' }, 'language'],
      [{ password: '' }, 'password'],
      [{ nickname: 'x' }, 'nickname'],
      [{ budgets: [] }, 'budgets'],
      [{ max_concurrency: 1 }, 'max_concurrency'],
      [{ low_balance_alert: 1 }, 'low_balance_alert'],
    ])('refuses %j naming the field', async (body, field) => {
      expectApiError(await client.call('PATCH', '/me', { body }), 400, 'invalid_request', field);
      expect((await gw.admin('GET', `/users/${user.id}`)).body).toMatchObject({ role: 'user', balance: 0 });
    });
  });

  describe('/api/me/keys', () => {
    it('creates a key with every attribute but user_id, shows the full key once, and the key works', async () => {
      const attributes = {
        name: 'laptop',
        status: 'enabled',
        expires_at: 4_102_444_800,
        unlimited_quota: false,
        quota: 2.000000001,
        model_limits: ['gpt-4o'],
        ip_allow_list: ['127.0.0.1', '::1'],
        group: 'default',
        rpm: 60,
        tpm: 100000,
      };
      const created = await client.call<KeyView>('POST', '/me/keys', { body: attributes });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ ...attributes, user_id: user.id, used_quota: 0 });
      expect(created.body.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);

      const listed = await client.call<{ data: KeyView[] }>('GET', '/me/keys');
      const shown = listed.body.data.find((key) => key.id === created.body.id);
      expect(shown?.key).not.toBe(created.body.key);
      expect(shown?.key).toMatch(/^sk-.{4}\.\.\..{4}$/);
      expect((await client.call('GET', `/me/keys/${created.body.id}`)).body).toEqual(shown);

      const models = await fetch(`${gw.origin}/v1/models`, {
        headers: { authorization: `Bearer ${created.body.key}` },
      });
      expect(models.status).toBe(200);
    });

    it('sets, keeps and clears the spend limits of its own keys, usd to the nano-dollar', async () => {
      const created = await client.call<KeyView>('POST', '/me/keys', {
        body: { budgets: WIRE_BUDGETS, max_concurrency: 2 },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ budgets: WIRE_BUDGETS, max_concurrency: 2 });
      const listed = await client.call<{ data: KeyView[] }>('GET', '/me/keys?limit=1000');
      expect(listed.body.data.find((key) => key.id === created.body.id)).toMatchObject({
        budgets: WIRE_BUDGETS,
        max_concurrency: 2,
      });
      const stored = await gw.gateway.services.repositories.keys.find(created.body.id);
      expect(stored?.budgets.map((budget) => budget.usd)).toEqual([12_345_678_901, 1, null]);

      const shortened = await client.call('PATCH', `/me/keys/${created.body.id}`, {
        body: { budgets: [SHORT_BUDGET] },
      });
      expect(shortened.body).toMatchObject({ budgets: [SHORT_BUDGET_READ], max_concurrency: 2 });
      const cleared = await client.call('PATCH', `/me/keys/${created.body.id}`, {
        body: { budgets: [], max_concurrency: null },
      });
      expect(cleared.body).toMatchObject({ budgets: [], max_concurrency: null });
      expect((await client.call('GET', `/me/keys/${created.body.id}`)).body).toEqual(cleared.body);
    });

    it.each(REFUSED_BUDGETS)(
      'refuses %s on its own keys, naming the member',
      async (_label, budgets, field, problem) => {
        expectInvalidField(await client.call('POST', '/me/keys', { body: { budgets } }), field, problem);
        const created = await client.call<KeyView>('POST', '/me/keys', { body: { budgets: [SHORT_BUDGET] } });
        expectInvalidField(
          await client.call('PATCH', `/me/keys/${created.body.id}`, { body: { budgets } }),
          field,
          problem,
        );
        expect((await client.call('GET', `/me/keys/${created.body.id}`)).body).toEqual({
          ...created.body,
          key: expect.stringMatching(/^sk-.{4}\.\.\..{4}$/),
        });
      },
    );

    it.each(REFUSED_MAX_CONCURRENCY)(
      'refuses a max_concurrency of %s on its own keys',
      async (_label, value) => {
        expectInvalidField(
          await client.call('POST', '/me/keys', { body: { max_concurrency: value } }),
          'max_concurrency',
        );
      },
    );

    it('names no group but the user’s own: another group is refused on create and on update', async () => {
      const other = await client.call<{ error: { message: string } }>('POST', '/me/keys', {
        body: { group: 'vip' },
      });
      expectApiError(other, 403, 'forbidden');
      expect(other.body.error.message).toContain('(default)');
      const created = await client.call<KeyView>('POST', '/me/keys', { body: { group: null } });
      expect(created.status).toBe(201);
      expectApiError(
        await client.call('PATCH', `/me/keys/${created.body.id}`, { body: { group: 'vip' } }),
        403,
        'forbidden',
      );
      expect((await gw.admin('GET', `/keys/${created.body.id}`)).body.group).toBeNull();
    });

    it.each([
      [{ user_id: 1 }, 'user_id'],
      [{ key: 'sk-mine' }, 'key'],
      [{ used_quota: 0 }, 'used_quota'],
      [{ status: 'expired' }, 'status'],
      [{ quota: -1 }, 'quota'],
      [{ ip_allow_list: ['not an address'] }, 'ip_allow_list[0]'],
      [{ color: 'red' }, 'color'],
    ])('refuses to create with %j naming the field', async (body, field) => {
      expectApiError(await client.call('POST', '/me/keys', { body }), 400, 'invalid_request', field);
    });

    it('changes and deletes its own keys', async () => {
      const created = (await client.call<KeyView>('POST', '/me/keys', { body: { name: 'temp' } })).body;
      const patched = await client.call('PATCH', `/me/keys/${created.id}`, {
        body: { name: 'renamed', status: 'disabled', rpm: 5, model_limits: null },
      });
      expect(patched).toMatchObject({
        status: 200,
        body: { id: created.id, name: 'renamed', status: 'disabled', rpm: 5 },
      });
      expectApiError(
        await client.call('PATCH', `/me/keys/${created.id}`, { body: { user_id: 999 } }),
        400,
        'invalid_request',
        'user_id',
      );
      const deleted = await client.call('DELETE', `/me/keys/${created.id}`);
      expect(deleted).toMatchObject({ status: 200, body: { id: created.id } });
      expect(await gw.gateway.services.repositories.keys.find(created.id)).toBeUndefined();
      expectApiError(await client.call('GET', `/me/keys/${created.id}`), 404, 'not_found');
    });

    it('never reaches another user’s key: 404 as for a key that does not exist', async () => {
      const theirs = await otherUserKey();
      expectApiError(await client.call('GET', `/me/keys/${theirs.id}`), 404, 'not_found');
      expectApiError(
        await client.call('PATCH', `/me/keys/${theirs.id}`, { body: { name: 'mine now' } }),
        404,
        'not_found',
      );
      expectApiError(await client.call('DELETE', `/me/keys/${theirs.id}`), 404, 'not_found');
      expect((await gw.admin('GET', `/keys/${theirs.id}`)).body).toMatchObject({
        name: 'theirs',
        status: 'enabled',
      });
      const listed = await client.call<{ data: KeyView[] }>('GET', '/me/keys?limit=1000');
      expect(listed.body.data.length).toBeGreaterThan(0);
      expect(listed.body.data.every((key) => key.user_id === user.id)).toBe(true);
    });
  });

  describe('the root admin on /api/me', () => {
    it('reads itself, owns no keys, and has no account to change', async () => {
      const root = await signedInClient(gw, { token: TEST_ADMIN_TOKEN });
      expect((await root.call('GET', '/me')).body).toMatchObject({ id: 0, username: 'root', root: true });
      expect((await root.call('GET', '/me/keys')).body).toEqual({ data: [] });
      expectApiError(await root.call('POST', '/me/keys', { body: {} }), 403, 'forbidden');
      expectApiError(await root.call('PATCH', '/me', { body: { language: 'en' } }), 403, 'forbidden');
      const theirs = await otherUserKey();
      expectApiError(await root.call('DELETE', `/me/keys/${theirs.id}`), 403, 'forbidden');
      const bearer = await callApi(gw, 'GET', '/me', {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(bearer.body).toMatchObject({ id: 0, root: true });
    });
  });

  it('answers 401 to /api/me without credentials', async () => {
    expectApiError(await callApi(gw, 'GET', '/me'), 401, 'unauthorized');
    expectApiError(await callApi(gw, 'GET', '/me/keys'), 401, 'unauthorized');
    expectApiError(await callApi(gw, 'POST', '/me/keys', { body: {} }), 401, 'unauthorized');
  });
});
