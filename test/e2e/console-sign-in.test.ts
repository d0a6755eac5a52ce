import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/hash-key.js';
import {
  callApi,
  expectApiError,
  nextClientIp,
  signIn,
  type ApiResponse,
  type ErrorBody,
  type SetCookie,
} from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

const WEEK_S = 7 * 24 * 3600;
const PASSWORD = 'correct horse battery staple';

const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

function cookieNamed(response: ApiResponse, name: string): SetCookie {
  const cookie = response.cookies.find((candidate) => candidate.name === name);
  expect(cookie, `Set-Cookie ${name}`).toBeDefined();
  return cookie as SetCookie;
}

/** Sign-ins hash passwords on purpose slowly: on a busy machine these tests take their time. */
const SLOW = 90_000;

/**
 * `Retry-After` of a refusal: whole seconds until the oldest counted failure, made no earlier
 * than `since` (performance.now()), is 15 minutes old.
 */
function expectRetryAfter(response: ApiResponse, since: number): number {
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  const elapsed = Math.ceil((performance.now() - since) / 1000);
  expect(retryAfter).toBeGreaterThanOrEqual(900 - elapsed - 1);
  expect(retryAfter).toBeLessThanOrEqual(900);
  return retryAfter;
}

/** The message without its request id suffix, which differs per request. */
function messageOf(response: ApiResponse): string {
  return (response.body as ErrorBody).error.message.replace(/ \(request id: [0-9a-f]+\)$/, '');
}

describe.each(gatewayVariants())('console sign-in on $name', (variant) => {
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

  it('signs a user in with username and password and sets both cookies', async () => {
    const user = await createUser({ language: 'zh-CN', balance: 1.5 });
    const response = await signIn(gw, { username: user.username, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.id,
      username: user.username,
      role: 'user',
      group: 'default',
      balance: 1.5,
      used: 0,
      language: 'zh-CN',
      status: 'enabled',
      budgets: [],
      max_concurrency: null,
      low_balance_alert: null,
      created_at: expect.any(Number),
      root: false,
    });

    const session = cookieNamed(response, 'gw_session');
    expect(session.attributes).toEqual({
      path: '/',
      'max-age': `${WEEK_S}`,
      httponly: true,
      samesite: 'Lax',
    });
    const csrf = cookieNamed(response, 'gw_csrf');
    expect(csrf.attributes).toEqual({ path: '/', 'max-age': `${WEEK_S}`, samesite: 'Lax' });
    expect(session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrf.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrf.value).not.toBe(session.value);

    // Only hashes are stored: the cookie's value is no row's id, its hash is.
    const { sessions } = gw.gateway.services.repositories;
    expect(await sessions.find(session.value)).toBeUndefined();
    const stored = await sessions.find(hashKey(session.value));
    expect(stored).toMatchObject({ userId: user.id, rootToken: null, csrfHash: hashKey(csrf.value) });
    expect(stored && stored.expiresAt - stored.createdAt).toBe(WEEK_S);
  });

  it('signs the root admin in with the admin token as the built-in admin of id 0', async () => {
    const response = await signIn(gw, { token: TEST_ADMIN_TOKEN });
    expect(response.status).toBe(200);
    const root = {
      id: 0,
      username: 'root',
      role: 'admin',
      group: 'default',
      balance: 0,
      used: 0,
      language: null,
      status: 'enabled',
      created_at: 0,
      root: true,
    };
    expect(response.body).toEqual(root);
    const session = cookieNamed(response, 'gw_session').value;
    const me = await callApi(gw, 'GET', '/auth/me', { headers: { cookie: `gw_session=${session}` } });
    expect(me).toMatchObject({ status: 200, body: root });
  });

  it('marks both cookies Secure when a trusted proxy forwarded an HTTPS request', async () => {
    const response = await signIn(
      gw,
      { token: TEST_ADMIN_TOKEN },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(response.status).toBe(200);
    expect(cookieNamed(response, 'gw_session').attributes.secure).toBe(true);
    expect(cookieNamed(response, 'gw_csrf').attributes.secure).toBe(true);

    const plain = await signIn(gw, { token: TEST_ADMIN_TOKEN }, { headers: { 'x-forwarded-proto': 'http' } });
    expect(cookieNamed(plain, 'gw_session').attributes.secure).toBeUndefined();
  });

  it('believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const { settings } = gw.gateway.services;
    const before = settings.get().trusted_proxies;
    await settings.update({ trusted_proxies: [] });
    try {
      const response = await signIn(
        gw,
        { token: TEST_ADMIN_TOKEN },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
      expect(response.status).toBe(200);
      expect(cookieNamed(response, 'gw_session').attributes.secure).toBeUndefined();
      expect(cookieNamed(response, 'gw_csrf').attributes.secure).toBeUndefined();
    } finally {
      await settings.update({ trusted_proxies: [...before] });
    }
  });

  it(
    'answers every wrong credential with the same 401 and sets no cookie',
    async () => {
      const user = await createUser();
      const disabled = await createUser({ status: 'disabled' });
      const noPassword = await gw.admin('POST', '/users', { username: uniqueName('nopass') });
      const attempts = [
        { username: user.username, password: 'wrong password' },
        { username: uniqueName('nobody'), password: PASSWORD },
        { username: noPassword.body.username, password: PASSWORD },
        { username: disabled.username, password: PASSWORD },
        { username: user.username.toUpperCase(), password: PASSWORD },
        { token: 'not-the-admin-token' },
      ];
      const responses = [];
      for (const credentials of attempts) responses.push(await signIn(gw, credentials));
      for (const response of responses) {
        expectApiError(response, 401, 'invalid_credentials');
        expect(response.cookies).toEqual([]);
      }
      expect(new Set(responses.map(messageOf))).toEqual(new Set(['Wrong username or password']));
    },
    SLOW,
  );

  it('refuses a sign-in that a browser says came from another site', async () => {
    const crossSite = await signIn(
      gw,
      { token: TEST_ADMIN_TOKEN },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expectApiError(crossSite, 403, 'csrf_failed');
    expect(crossSite.cookies).toEqual([]);
    const sameOrigin = await signIn(
      gw,
      { token: TEST_ADMIN_TOKEN },
      { headers: { 'sec-fetch-site': 'same-origin' } },
    );
    expect(sameOrigin.status).toBe(200);
  });

  it('answers in the language the client asks for', async () => {
    const response = await signIn(
      gw,
      { username: uniqueName('nobody'), password: 'x' },
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expectApiError(response, 401, 'invalid_credentials');
    expect(messageOf(response)).toBe('用户名或密码错误');
  });

  it.each([
    [{}, 'username'],
    [{ username: 'alice' }, 'password'],
    [{ password: PASSWORD }, 'username'],
    [{ username: '', password: PASSWORD }, 'username'],
    [{ token: TEST_ADMIN_TOKEN, username: 'alice' }, 'username'],
    [{ token: TEST_ADMIN_TOKEN, password: PASSWORD }, 'password'],
    [{ token: 42 }, 'token'],
    [{ username: 'alice', password: PASSWORD, remember: true }, 'remember'],
  ])('rejects the body %j naming %s', async (body, field) => {
    expectApiError(await signIn(gw, body), 400, 'invalid_request', field);
  });

  it(
    'refuses the 11th attempt for one username within 15 minutes, from any address, with Retry-After',
    async () => {
      const user = await createUser();
      const started = performance.now();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await signIn(gw, { username: user.username, password: `guess-${attempt}` });
        expectApiError(response, 401, 'invalid_credentials');
      }
      // Even the right password, from yet another address.
      const refused = await signIn(gw, { username: user.username, password: PASSWORD });
      expectApiError(refused, 429, 'too_many_attempts');
      const retryAfter = expectRetryAfter(refused, started);
      expect(messageOf(refused)).toBe(`Too many failed sign-in attempts, try again in ${retryAfter} seconds`);
      expect(refused.cookies).toEqual([]);
      // Other usernames are not affected.
      const other = await createUser();
      expect((await signIn(gw, { username: other.username, password: PASSWORD })).status).toBe(200);
    },
    SLOW,
  );

  it(
    'refuses the 11th attempt from one client address within 15 minutes, whatever the username',
    async () => {
      const clientIp = nextClientIp();
      const started = performance.now();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await signIn(gw, { username: uniqueName('nobody'), password: 'x' }, { clientIp });
        expectApiError(response, 401, 'invalid_credentials');
      }
      const user = await createUser();
      const refused = await signIn(gw, { username: user.username, password: PASSWORD }, { clientIp });
      expectApiError(refused, 429, 'too_many_attempts');
      expectRetryAfter(refused, started);
      const byToken = await signIn(gw, { token: TEST_ADMIN_TOKEN }, { clientIp });
      expectApiError(byToken, 429, 'too_many_attempts');
      // The same user from another address signs in.
      expect((await signIn(gw, { username: user.username, password: PASSWORD })).status).toBe(200);
    },
    SLOW,
  );

  it(
    'counts wrong admin tokens per client address',
    async () => {
      const clientIp = nextClientIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expectApiError(
          await signIn(gw, { token: `guess-${attempt}` }, { clientIp }),
          401,
          'invalid_credentials',
        );
      }
      expectApiError(await signIn(gw, { token: TEST_ADMIN_TOKEN }, { clientIp }), 429, 'too_many_attempts');
    },
    SLOW,
  );

  it(
    'forgives a username its failures once its password is given',
    async () => {
      const user = await createUser();
      const fail = async () =>
        expectApiError(
          await signIn(gw, { username: user.username, password: 'wrong' }),
          401,
          'invalid_credentials',
        );
      for (let attempt = 1; attempt <= 9; attempt += 1) await fail();
      expect((await signIn(gw, { username: user.username, password: PASSWORD })).status).toBe(200);
      for (let attempt = 1; attempt <= 9; attempt += 1) await fail();
      expect((await signIn(gw, { username: user.username, password: PASSWORD })).status).toBe(200);
    },
    SLOW,
  );

  it(
    'counts attempts still being checked, so a burst of guesses gets no more than 10 tries',
    async () => {
      const user = await createUser();
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          signIn(gw, { username: user.username, password: `burst-${index}` }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    },
    SLOW,
  );

  it(
    'takes about as long for an unknown username as for a wrong password',
    async () => {
      const user = await createUser();
      const timed = async (username: string) => {
        const started = performance.now();
        expectApiError(await signIn(gw, { username, password: 'wrong' }), 401, 'invalid_credentials');
        return performance.now() - started;
      };
      const median = (values: number[]) =>
        [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      await timed(uniqueName('warm-up'));
      const known: number[] = [];
      const unknown: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        known.push(await timed(user.username));
        unknown.push(await timed(uniqueName('nobody')));
      }
      // Without a dummy hash an unknown user would answer in a millisecond, against tens for scrypt.
      expect(median(unknown)).toBeGreaterThan(median(known) / 3);
    },
    SLOW,
  );
});

const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)('console sign-in attempts shared through Redis', () => {
  it(
    'counts failures made on one instance when signing in on another',
    async () => {
      const [variant] = gatewayVariants();
      if (!variant) throw new Error('no gateway variant');
      const first = await variant.start({ redisUrl });
      const second = await variant.start({ redisUrl });
      try {
        const username = uniqueName('shared');
        for (const gw of [first, second]) {
          const created = await gw.admin('POST', '/users', { username, password: PASSWORD });
          expect(created.status).toBe(201);
        }
        const started = performance.now();
        for (let attempt = 1; attempt <= 10; attempt += 1) {
          const response = await signIn(first, { username, password: 'wrong' });
          expectApiError(response, 401, 'invalid_credentials');
        }
        const refused = await signIn(second, { username, password: PASSWORD });
        expectApiError(refused, 429, 'too_many_attempts');
        expectRetryAfter(refused, started);
      } finally {
        await first.close();
        await second.close();
      }
    },
    SLOW,
  );
});
