import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  ConsoleClient,
  expectApiError,
  nextClientIp,
  signedInClient,
  signIn,
  type ApiResponse,
  type ErrorBody,
} from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import type { TestGateway } from '../helpers/start-test-gateway.js';

const PASSWORD = 'sign up password';
/** Sign-ups hash passwords on purpose slowly: on a busy machine these tests take their time. */
const SLOW = 120_000;

const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

interface UserView {
  id: number;
  username: string;
  role: string;
  group: string;
  balance: number;
  status: string;
  root: boolean;
}

interface InviteView {
  id: number;
  code: string;
  status: string;
  used_by: number | null;
  used_at: number | null;
  created_at: number;
}

function register(
  gw: TestGateway,
  body: Record<string, unknown>,
  options: { clientIp?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return callApi(gw, 'POST', '/auth/register', {
    body,
    headers: { 'x-forwarded-for': options.clientIp ?? nextClientIp(), ...options.headers },
  });
}

/** A console client holding the session a sign-up answered with. */
function clientOf(gw: TestGateway, response: ApiResponse, clientIp: string): ConsoleClient {
  const cookie = (name: string) => response.cookies.find((candidate) => candidate.name === name)?.value ?? '';
  return new ConsoleClient(gw, cookie('gw_session'), cookie('gw_csrf'), clientIp);
}

function messageOf(response: ApiResponse): string {
  return (response.body as ErrorBody).error.message.replace(/ \(request id: [0-9a-f]+\)$/, '');
}

describe.each(gatewayVariants())('sign-up on $name', (variant) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await variant.start();
  });

  afterAll(async () => {
    await gw?.close();
  });

  const setRegistration = async (settings: Record<string, unknown>) =>
    expect((await gw.admin('PATCH', '/settings', settings)).status).toBe(200);

  async function inviteCodes(count: number): Promise<InviteView[]> {
    const response = await gw.admin('POST', '/invite-codes', { count });
    expect(response.status).toBe(201);
    return response.body.data;
  }

  it('is closed by default: 403 registration_closed, and no user is made', async () => {
    expect((await gw.admin('GET', '/settings')).body).toMatchObject({
      registration: 'closed',
      new_user_balance: 0,
      pricing_public: true,
    });
    const username = uniqueName('closed');
    const response = await register(gw, { username, password: PASSWORD });
    expectApiError(response, 403, 'registration_closed');
    expect(response.cookies).toEqual([]);
    expect(await gw.gateway.services.repositories.users.findByUsername(username)).toBeUndefined();
  });

  it('refuses settings out of range', async () => {
    for (const [name, value] of [
      ['registration', 'everyone'],
      ['new_user_balance', -1],
      ['new_user_balance', 10_000_000],
      ['pricing_public', 'yes'],
    ] as const) {
      expectApiError(
        await callApi(gw, 'PATCH', '/settings', {
          body: { [name]: value },
          headers: { authorization: 'Bearer test-admin-token' },
        }),
        400,
        'invalid_request',
        name,
      );
    }
  });

  it(
    'when open: creates an enabled user of the default group, signs them in, and credits the sign-up balance',
    async () => {
      await setRegistration({ registration: 'open', new_user_balance: 2.5 });
      const username = uniqueName('Open');
      const clientIp = nextClientIp();
      const response = await register(gw, { username, password: PASSWORD }, { clientIp });
      expect(response.status).toBe(201);
      const user = response.body as UserView;
      expect(user).toEqual({
        id: expect.any(Number),
        username,
        role: 'user',
        group: 'default',
        balance: 2.5,
        used: 0,
        language: null,
        status: 'enabled',
        budgets: [],
        max_concurrency: null,
        low_balance_alert: null,
        created_at: expect.any(Number),
        root: false,
      });
      // The cookies are those of a sign-in, and they work.
      expect(response.cookies.map((cookie) => cookie.name).sort()).toEqual(['gw_csrf', 'gw_session']);
      expect(response.cookies.find((cookie) => cookie.name === 'gw_session')?.attributes).toMatchObject({
        httponly: true,
        samesite: 'Lax',
        path: '/',
      });
      const client = clientOf(gw, response, clientIp);
      const me = await client.call('GET', '/me');
      expect(me.status).toBe(200);
      expect(me.body).toEqual(user);
      // The sign-up balance is explained in the user's history.
      const credits = await client.call<{ data: unknown[] }>('GET', '/me/credits');
      expect(credits.body.data).toEqual([
        {
          id: expect.any(Number),
          amount: 2.5,
          kind: 'signup',
          reference: null,
          created_at: expect.any(Number),
        },
      ]);
      expect((await gw.admin('GET', `/users/${user.id}/credits`)).body.data).toEqual(credits.body.data);
      // And the password signs in.
      expect((await signIn(gw, { username, password: PASSWORD })).status).toBe(200);
    },
    SLOW,
  );

  it(
    'with a sign-up balance of 0 records no credit',
    async () => {
      await setRegistration({ registration: 'open', new_user_balance: 0 });
      const clientIp = nextClientIp();
      const response = await register(gw, { username: uniqueName('zero'), password: PASSWORD }, { clientIp });
      expect(response.status).toBe(201);
      expect((response.body as UserView).balance).toBe(0);
      expect((await clientOf(gw, response, clientIp).call('GET', '/me/credits')).body).toEqual({ data: [] });
    },
    SLOW,
  );

  it('checks the password and the username', async () => {
    await setRegistration({ registration: 'open' });
    const cases: [Record<string, unknown>, string][] = [
      [{ username: uniqueName('pw'), password: 'seven77' }, 'password'],
      [{ username: uniqueName('pw'), password: 'x'.repeat(1025) }, 'password'],
      [{ username: uniqueName('pw') }, 'password'],
      [{ username: 'ab', password: PASSWORD }, 'username'],
      [{ username: 'a'.repeat(33), password: PASSWORD }, 'username'],
      [{ username: 'al ice', password: PASSWORD }, 'username'],
      [{ username: 'alice@example', password: PASSWORD }, 'username'],
      [{ username: 'ålice', password: PASSWORD }, 'username'],
      [{ password: PASSWORD }, 'username'],
      [{ username: uniqueName('x'), password: PASSWORD, role: 'admin' }, 'role'],
    ];
    for (const [body, field] of cases) {
      const response = await register(gw, body);
      expectApiError(response, 400, 'invalid_request', field);
      expect(response.cookies).toEqual([]);
    }
  });

  it(
    'accepts the shortest and longest names and passwords, and every allowed character',
    async () => {
      await setRegistration({ registration: 'open' });
      const suffix = randomBytes(2).toString('hex');
      for (const username of [`a${suffix.slice(0, 2)}`, `Z9_.-${suffix}`.padEnd(32, 'x')]) {
        const response = await register(gw, { username, password: '8 chars!' });
        expect(response.status, username).toBe(201);
      }
    },
    SLOW,
  );

  it(
    'keeps usernames unique whatever their case, through sign-up and the admin API',
    async () => {
      await setRegistration({ registration: 'open' });
      const username = uniqueName('CaseUser');
      expect((await register(gw, { username, password: PASSWORD })).status).toBe(201);
      for (const variantName of [username.toLowerCase(), username.toUpperCase(), username]) {
        const response = await register(gw, { username: variantName, password: PASSWORD });
        expectApiError(response, 400, 'invalid_request', 'username');
        expect(messageOf(response)).toContain('is already taken');
      }
      const byAdmin = await gw.admin('POST', '/users', { username: username.toLowerCase() });
      expect(byAdmin.status).toBe(400);
      expect(byAdmin.body.error.message).toContain('"username": is already taken');
      // A name taken by the admin API first is refused to sign-up in any case too.
      const adminMade = uniqueName('ByAdmin');
      expect((await gw.admin('POST', '/users', { username: adminMade })).status).toBe(201);
      expectApiError(
        await register(gw, { username: adminMade.toUpperCase(), password: PASSWORD }),
        400,
        'invalid_request',
        'username',
      );
    },
    SLOW,
  );

  it(
    'when invite-only: needs an unused code, and each code works once',
    async () => {
      await setRegistration({ registration: 'invite' });
      const [invite] = await inviteCodes(1);
      expect(invite?.code).toMatch(/^inv_[A-Za-z0-9_-]{24}$/);
      const missing = await register(gw, { username: uniqueName('inv'), password: PASSWORD });
      expectApiError(missing, 400, 'invalid_invite_code');
      const wrong = await register(gw, {
        username: uniqueName('inv'),
        password: PASSWORD,
        invite_code: 'inv_wrongwrongwrongwrongwron',
      });
      expectApiError(wrong, 400, 'invalid_invite_code');
      expect(messageOf(wrong)).toBe(messageOf(missing));
      expect((wrong.body as ErrorBody).error.param).toBe('invite_code');

      const username = uniqueName('inv');
      const first = await register(gw, { username, password: PASSWORD, invite_code: invite?.code });
      expect(first.status).toBe(201);
      const used = await register(gw, {
        username: uniqueName('inv'),
        password: PASSWORD,
        invite_code: invite?.code,
      });
      expectApiError(used, 400, 'invalid_invite_code');
      expect(messageOf(used)).toBe(messageOf(missing));

      const listed = (await gw.admin('GET', '/invite-codes')).body.data as InviteView[];
      expect(listed.find((entry) => entry.id === invite?.id)).toEqual({
        id: invite?.id,
        code: expect.stringMatching(/^inv_[A-Za-z0-9_-]{4}\.\.\.[A-Za-z0-9_-]{4}$/),
        status: 'used',
        used_by: (first.body as UserView).id,
        used_at: expect.any(Number),
        created_at: expect.any(Number),
      });
    },
    SLOW,
  );

  it(
    'leaves the invite code unused when the sign-up fails for another reason',
    async () => {
      await setRegistration({ registration: 'open' });
      const taken = uniqueName('taken');
      expect((await register(gw, { username: taken, password: PASSWORD })).status).toBe(201);
      await setRegistration({ registration: 'invite' });
      const [invite] = await inviteCodes(1);
      const refused = await register(gw, {
        username: taken.toUpperCase(),
        password: PASSWORD,
        invite_code: invite?.code,
      });
      expectApiError(refused, 400, 'invalid_request', 'username');
      const listed = (await gw.admin('GET', '/invite-codes')).body.data as InviteView[];
      expect(listed.find((entry) => entry.id === invite?.id)).toMatchObject({
        status: 'unused',
        used_by: null,
      });
      const later = await register(gw, {
        username: uniqueName('later'),
        password: PASSWORD,
        invite_code: invite?.code,
      });
      expect(later.status).toBe(201);
    },
    SLOW,
  );

  it(
    'lets exactly one of 10 concurrent sign-ups use one invite code',
    async () => {
      await setRegistration({ registration: 'invite' });
      const [invite] = await inviteCodes(1);
      const names = Array.from({ length: 10 }, () => uniqueName('race'));
      const responses = await Promise.all(
        names.map((username) => register(gw, { username, password: PASSWORD, invite_code: invite?.code })),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, ...Array<number>(9).fill(400)]);
      for (const response of responses.filter((candidate) => candidate.status !== 201))
        expectApiError(response, 400, 'invalid_invite_code');
      const { users } = gw.gateway.services.repositories;
      const made = await Promise.all(names.map((username) => users.findByUsername(username)));
      expect(made.filter((user) => user !== undefined)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'is throttled with sign-in: 10 failed attempts from one address, then 429 for sign-up and sign-in alike',
    async () => {
      await setRegistration({ registration: 'invite' });
      const clientIp = nextClientIp();
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const response = await register(
          gw,
          { username: uniqueName('guess'), password: PASSWORD, invite_code: `inv_guess${attempt}` },
          { clientIp },
        );
        expectApiError(response, 400, 'invalid_invite_code');
      }
      const [invite] = await inviteCodes(1);
      const refused = await register(
        gw,
        { username: uniqueName('guess'), password: PASSWORD, invite_code: invite?.code },
        { clientIp },
      );
      expectApiError(refused, 429, 'too_many_attempts');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expectApiError(
        await signIn(gw, { username: 'anyone', password: 'x' }, { clientIp }),
        429,
        'too_many_attempts',
      );
      // The code was not used by the refused attempt; from another address it works.
      expect(
        (await register(gw, { username: uniqueName('ok'), password: PASSWORD, invite_code: invite?.code }))
          .status,
      ).toBe(201);
    },
    SLOW,
  );

  it('counts failed attempts per username too', async () => {
    await setRegistration({ registration: 'invite' });
    const username = uniqueName('target');
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expectApiError(
        await register(gw, { username, password: PASSWORD, invite_code: `inv_guess${attempt}` }),
        400,
        'invalid_invite_code',
      );
    }
    expectApiError(await register(gw, { username, password: PASSWORD }), 429, 'too_many_attempts');
  });

  it('refuses a sign-up that a browser marks as coming from another site', async () => {
    await setRegistration({ registration: 'open' });
    const response = await register(
      gw,
      { username: uniqueName('csrf'), password: PASSWORD },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expectApiError(response, 403, 'csrf_failed');
  });

  describe('invite codes', () => {
    it(
      'are made in batches of 1 to 1000, shown whole only once, and deleted',
      async () => {
        for (const count of [0, 1001, 1.5, '2']) {
          const response = await gw.admin('POST', '/invite-codes', { count });
          expect(response.status, String(count)).toBe(400);
          expect(response.body.error).toMatchObject({ code: 'invalid_request', param: 'count' });
        }
        const made = await inviteCodes(1000);
        expect(made).toHaveLength(1000);
        expect(new Set(made.map((invite) => invite.code)).size).toBe(1000);
        const listed = (await gw.admin('GET', '/invite-codes?limit=1000')).body.data as InviteView[];
        const listedText = JSON.stringify(listed);
        for (const invite of made) expect(listedText).not.toContain(invite.code);
        // The database holds hashes, never a code.
        const rows = await gw.gateway.services.store.db.selectFrom('invite_codes').selectAll().execute();
        const stored = JSON.stringify(rows);
        for (const invite of made.slice(0, 50)) expect(stored).not.toContain(invite.code.slice(4));
        // Newest first.
        expect(listed[0]?.id).toBeGreaterThan(listed[1]?.id ?? Infinity);

        const target = made[0];
        const deleted = await gw.admin('DELETE', `/invite-codes/${target?.id}`);
        expect(deleted.status).toBe(200);
        expect(deleted.body).toMatchObject({ id: target?.id, status: 'unused' });
        expect(deleted.body.code).not.toBe(target?.code);
        expect((await gw.admin('DELETE', `/invite-codes/${target?.id}`)).status).toBe(404);
        // A deleted code no longer signs anyone up.
        await setRegistration({ registration: 'invite' });
        expectApiError(
          await register(gw, {
            username: uniqueName('deleted'),
            password: PASSWORD,
            invite_code: target?.code,
          }),
          400,
          'invalid_invite_code',
        );
      },
      SLOW,
    );

    it(
      'are for admins only',
      async () => {
        const username = uniqueName('plain');
        await gw.admin('POST', '/users', { username, password: PASSWORD });
        const client = await signedInClient(gw, { username, password: PASSWORD });
        expectApiError(await client.call('GET', '/invite-codes'), 403, 'forbidden');
        expectApiError(await client.call('POST', '/invite-codes', { body: { count: 1 } }), 403, 'forbidden');
        expectApiError(await callApi(gw, 'GET', '/invite-codes'), 401, 'unauthorized');
      },
      SLOW,
    );
  });
});
