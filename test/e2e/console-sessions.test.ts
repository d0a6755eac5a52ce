import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/hash-key.js';
import { unixNow } from '../../src/store/json-column.js';
import {
  callApi,
  ConsoleClient,
  expectApiError,
  signedInClient,
  type ApiResponse,
} from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

const PASSWORD = 'a long enough password';
const DAY_S = 24 * 3600;

const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

describe.each(gatewayVariants())('console sessions on $name', (variant) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await variant.start();
  });

  afterAll(async () => {
    await gw?.close();
  });

  async function createUser(fields: Record<string, unknown> = {}) {
    const response = await gw.admin('POST', '/users', {
      username: uniqueName('user'),
      password: PASSWORD,
      ...fields,
    });
    expect(response.status).toBe(201);
    return response.body as { id: number; username: string };
  }

  async function userSession(fields: Record<string, unknown> = {}) {
    const user = await createUser(fields);
    return { user, client: await signedInClient(gw, { username: user.username, password: PASSWORD }) };
  }

  const expectSignedIn = async (client: ConsoleClient, id: number) =>
    expect(await client.call('GET', '/auth/me')).toMatchObject({ status: 200, body: { id } });
  const expectSignedOut = async (client: ConsoleClient) =>
    expectApiError(await client.call('GET', '/auth/me'), 401, 'unauthorized');

  describe('/api/auth/me', () => {
    it('answers the signed-in user, and 401 without a live session', async () => {
      const { user, client } = await userSession();
      await expectSignedIn(client, user.id);
      expectApiError(await callApi(gw, 'GET', '/auth/me'), 401, 'unauthorized');
      expectApiError(
        await callApi(gw, 'GET', '/auth/me', { headers: { cookie: 'gw_session=not-a-session' } }),
        401,
        'unauthorized',
      );
      // The CSRF token is no session token.
      expectApiError(
        await callApi(gw, 'GET', '/auth/me', { headers: { cookie: `gw_session=${client.csrf}` } }),
        401,
        'unauthorized',
      );
    });

    it('answers the root admin for the admin token as a bearer token', async () => {
      const response = await callApi(gw, 'GET', '/auth/me', {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(response).toMatchObject({
        status: 200,
        body: { id: 0, username: 'root', role: 'admin', root: true },
      });
    });
  });

  describe('sign-out', () => {
    it('ends the session server-side and clears both cookies', async () => {
      const { user, client } = await userSession();
      await expectSignedIn(client, user.id);
      const response = await client.call('POST', '/auth/logout');
      expect(response.status).toBe(204);
      expect(response.body).toBeUndefined();
      for (const name of ['gw_session', 'gw_csrf']) {
        const cookie = response.cookies.find((candidate) => candidate.name === name);
        expect(cookie).toMatchObject({
          value: '',
          attributes: { path: '/', 'max-age': '0', samesite: 'Lax' },
        });
      }
      expect(await gw.gateway.services.repositories.sessions.find(hashKey(client.session))).toBeUndefined();
      // The old cookie, replayed, is refused.
      await expectSignedOut(client);
    });

    it('needs the CSRF header while the session is live', async () => {
      const { user, client } = await userSession();
      expectApiError(await client.call('POST', '/auth/logout', { csrf: false }), 403, 'csrf_failed');
      await expectSignedIn(client, user.id);
    });

    it('answers 204 without a session', async () => {
      expect((await callApi(gw, 'POST', '/auth/logout')).status).toBe(204);
      const stale = await callApi(gw, 'POST', '/auth/logout', { headers: { cookie: 'gw_session=gone' } });
      expect(stale.status).toBe(204);
    });

    it('ends only its own session', async () => {
      const user = await createUser();
      const first = await signedInClient(gw, { username: user.username, password: PASSWORD });
      const second = await signedInClient(gw, { username: user.username, password: PASSWORD });
      expect((await first.call('POST', '/auth/logout')).status).toBe(204);
      await expectSignedOut(first);
      await expectSignedIn(second, user.id);
    });
  });

  describe('CSRF', () => {
    const createKey = (client: ConsoleClient, csrf?: string | false, cookie?: string) =>
      client.call('POST', '/me/keys', {
        body: { name: 'csrf-test' },
        csrf,
        ...(cookie !== undefined && { headers: { cookie } }),
      });

    it('refuses a session write without X-CSRF-Token, with a wrong one, or with another session’s', async () => {
      const { user, client } = await userSession();
      const other = await userSession();
      const attempts: ApiResponse[] = [
        await createKey(client, false),
        await createKey(client, 'wrong'),
        await createKey(client, client.session),
        await createKey(client, other.client.csrf),
        // Header and cookie agree, but on a value this session was not given.
        await createKey(
          client,
          other.client.csrf,
          `gw_session=${client.session}; gw_csrf=${other.client.csrf}`,
        ),
        // The header is right, but the cookie is missing.
        await createKey(client, client.csrf, `gw_session=${client.session}`),
      ];
      for (const response of attempts) expectApiError(response, 403, 'csrf_failed');
      expect(
        await gw.gateway.services.repositories.keys.list({ userId: user.id, limit: 10, offset: 0 }),
      ).toEqual([]);

      const accepted = await createKey(client);
      expect(accepted.status).toBe(201);
    });

    it('needs no CSRF header for reads', async () => {
      const { client } = await userSession();
      expect((await client.call('GET', '/me/keys')).status).toBe(200);
    });

    it('guards every state-changing method of an admin session', async () => {
      const admin = await signedInClient(gw, { token: TEST_ADMIN_TOKEN });
      const target = await createUser();
      const writes: [string, string, unknown][] = [
        ['POST', '/users', { username: uniqueName('csrf') }],
        ['PUT', '/groups/csrf-group', { ratio: 2 }],
        ['PATCH', `/users/${target.id}`, { balance: 5 }],
        ['DELETE', `/users/${target.id}`, undefined],
      ];
      for (const [method, path, body] of writes) {
        expectApiError(await admin.call(method, path, { body, csrf: false }), 403, 'csrf_failed');
      }
      expect((await gw.admin('GET', `/users/${target.id}`)).body).toMatchObject({ balance: 0 });
      for (const [method, path, body] of writes) {
        expect((await admin.call(method, path, { body })).status).toBeLessThan(300);
      }
    });

    it('needs no CSRF header for bearer calls, even with a session cookie beside them', async () => {
      const { client } = await userSession();
      const response = await callApi(gw, 'PATCH', '/settings', {
        body: {},
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, cookie: `gw_session=${client.session}` },
      });
      expect(response.status).toBe(200);
    });

    it('lets a wrong bearer token fail even when a valid session cookie comes with it', async () => {
      const admin = await signedInClient(gw, { token: TEST_ADMIN_TOKEN });
      const response = await admin.call('GET', '/users', { headers: { authorization: 'Bearer wrong' } });
      expectApiError(response, 401, 'unauthorized');
    });

    it('needs none for signing in, even with a session cookie present', async () => {
      const { user, client } = await userSession();
      const again = await callApi(gw, 'POST', '/auth/login', {
        body: { username: user.username, password: PASSWORD },
        headers: { cookie: `gw_session=${client.session}; gw_csrf=${client.csrf}` },
      });
      expect(again.status).toBe(200);
    });
  });

  describe('sessions end when the account changes', () => {
    it('ends the sessions of a user who is disabled, and they stay ended when enabled again', async () => {
      const { user, client } = await userSession();
      expect((await gw.admin('PATCH', `/users/${user.id}`, { status: 'disabled' })).status).toBe(200);
      await expectSignedOut(client);
      expectApiError(await client.call('GET', '/me/keys'), 401, 'unauthorized');
      await gw.admin('PATCH', `/users/${user.id}`, { status: 'enabled' });
      await expectSignedOut(client);
    });

    it('refuses a disabled user’s session even where the user row was changed behind the API', async () => {
      const { user, client } = await userSession();
      await gw.gateway.services.repositories.users.update(user.id, { status: 'disabled' });
      await expectSignedOut(client);
    });

    it('ends the sessions of a user whose password an admin changes', async () => {
      const { user, client } = await userSession();
      expect((await gw.admin('PATCH', `/users/${user.id}`, { password: 'another password' })).status).toBe(
        200,
      );
      await expectSignedOut(client);
    });

    it('ends the sessions of a deleted user', async () => {
      const { user, client } = await userSession();
      expect((await gw.admin('DELETE', `/users/${user.id}`)).status).toBe(200);
      await expectSignedOut(client);
      expect(await gw.gateway.services.repositories.sessions.find(hashKey(client.session))).toBeUndefined();
    });

    it('keeps the sessions through other changes', async () => {
      const { user, client } = await userSession();
      await gw.admin('PATCH', `/users/${user.id}`, { balance: 3, group: 'vip', language: 'en' });
      await expectSignedIn(client, user.id);
    });

    it('ends the user’s other sessions when they change their own password, and keeps the one that did', async () => {
      const { user, client } = await userSession();
      const elsewhere = await signedInClient(gw, { username: user.username, password: PASSWORD });
      const response = await client.call('PATCH', '/me', { body: { password: 'my new password' } });
      expect(response.status).toBe(200);
      await expectSignedIn(client, user.id);
      await expectSignedOut(elsewhere);
    });

    it('applies a role change on the next request', async () => {
      const { user, client } = await userSession();
      expectApiError(await client.call('GET', '/users'), 403, 'forbidden');
      await gw.admin('PATCH', `/users/${user.id}`, { role: 'admin' });
      expect((await client.call('GET', '/users')).status).toBe(200);
      await gw.admin('PATCH', `/users/${user.id}`, { role: 'user' });
      expectApiError(await client.call('GET', '/users'), 403, 'forbidden');
    });
  });

  describe('lifetime', () => {
    const sessionRows = () => gw.gateway.services.store.db.updateTable('sessions');

    it('ends a session idle for 24 hours', async () => {
      const { client } = await userSession();
      const id = hashKey(client.session);
      await sessionRows()
        .set({ last_seen_at: unixNow() - DAY_S })
        .where('id', '=', id)
        .execute();
      await expectSignedOut(client);
      expect(await gw.gateway.services.repositories.sessions.find(id)).toBeUndefined();
    });

    it('ends a session at its absolute end, however active', async () => {
      const { client } = await userSession();
      await sessionRows().set({ expires_at: unixNow() }).where('id', '=', hashKey(client.session)).execute();
      await expectSignedOut(client);
    });

    it('slides the idle limit with each request', async () => {
      const { user, client } = await userSession();
      const id = hashKey(client.session);
      const nearlyIdle = unixNow() - DAY_S + 120;
      await sessionRows().set({ last_seen_at: nearlyIdle }).where('id', '=', id).execute();
      await expectSignedIn(client, user.id);
      const touched = await gw.gateway.services.repositories.sessions.find(id);
      expect(touched?.lastSeenAt).toBeGreaterThanOrEqual(unixNow() - 5);
    });
  });
});

describe('root admin sessions', () => {
  it('end when the admin token is replaced', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-sessions-'));
    try {
      const first = await startTestGateway({ dataDir, settings: { trusted_proxies: ['127.0.0.1', '::1'] } });
      let client: ConsoleClient;
      try {
        client = await signedInClient(first, { token: TEST_ADMIN_TOKEN });
        expect((await client.call('GET', '/users')).status).toBe(200);
      } finally {
        await first.close();
      }
      const sameToken = await startTestGateway({ dataDir });
      try {
        const revived = new ConsoleClient(sameToken, client.session, client.csrf, client.clientIp);
        expect((await revived.call('GET', '/users')).status).toBe(200);
      } finally {
        await sameToken.close();
      }
      const newToken = `${TEST_ADMIN_TOKEN}-replaced`;
      const second = await startTestGateway({ dataDir, adminToken: newToken });
      try {
        const stale = new ConsoleClient(second, client.session, client.csrf, client.clientIp);
        expectApiError(await stale.call('GET', '/users'), 401, 'unauthorized');
        expect(
          (await signedInClient(second, { token: newToken }).then((c) => c.call('GET', '/users'))).status,
        ).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
