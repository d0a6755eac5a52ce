import { randomBytes } from 'node:crypto';
import type pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvironment } from '../../src/config/environment.js';
import { createGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/observability/logger.js';
import {
  callApi,
  ConsoleClient,
  expectApiError,
  nextClientIp,
  signedInClient,
  type ApiResponse,
  type ErrorBody,
} from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

const PASSWORD = 'redemption password';
const SLOW = 120_000;

const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

interface CodeView {
  id: number;
  code: string;
  name: string;
  amount: number;
  status: string;
  expires_at: number | null;
  used_by: number | null;
  used_at: number | null;
  created_at: number;
}

interface UserView {
  id: number;
  balance: number;
}

function messageOf(response: ApiResponse): string {
  return (response.body as ErrorBody).error.message.replace(/ \(request id: [0-9a-f]+\)$/, '');
}

describe.each(gatewayVariants())('redemption codes on $name', (variant) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await variant.start();
  });

  afterAll(async () => {
    await gw?.close();
  });

  async function makeCodes(body: Record<string, unknown>): Promise<CodeView[]> {
    const response = await gw.admin('POST', '/redemption-codes', body);
    expect(response.status).toBe(201);
    return response.body.data;
  }

  async function userClient(balance = 0): Promise<{ client: ConsoleClient; user: UserView }> {
    const username = uniqueName('redeemer');
    const created = await gw.admin('POST', '/users', { username, password: PASSWORD, balance });
    expect(created.status).toBe(201);
    return { client: await signedInClient(gw, { username, password: PASSWORD }), user: created.body };
  }

  /** The client, from an address of its own: only the account's count of failures is shared. */
  const redeem = (client: ConsoleClient, code: unknown) =>
    client.call('POST', '/me/redeem', { body: { code }, headers: { 'x-forwarded-for': nextClientIp() } });

  async function creditsOf(userId: number) {
    return (await gw.admin('GET', `/users/${userId}/credits`)).body.data as Array<Record<string, unknown>>;
  }

  it('are made in batches, shown whole only in the creating answer', async () => {
    const now = Math.floor(Date.now() / 1000);
    const made = await makeCodes({ amount: 12.5, count: 3, expires_at: now + 3600, name: 'spring promo' });
    expect(made).toHaveLength(3);
    for (const code of made) {
      expect(code).toEqual({
        id: expect.any(Number),
        code: expect.stringMatching(/^rdm_[A-Za-z0-9_-]{24}$/),
        name: 'spring promo',
        amount: 12.5,
        status: 'unused',
        expires_at: now + 3600,
        used_by: null,
        used_at: null,
        created_at: expect.any(Number),
      });
    }
    expect(new Set(made.map((code) => code.code)).size).toBe(3);
    const defaults = await makeCodes({ amount: 0.000000001 });
    expect(defaults).toEqual([expect.objectContaining({ amount: 0.000000001, expires_at: null, name: '' })]);

    const listed = (await gw.admin('GET', '/redemption-codes')).body.data as CodeView[];
    expect(listed.map((code) => code.id).slice(0, 4)).toEqual(
      [...defaults, ...made].map((code) => code.id).sort((a, b) => b - a),
    );
    for (const code of made) {
      const entry = listed.find((candidate) => candidate.id === code.id);
      expect(entry).toEqual({
        ...code,
        code: expect.stringMatching(/^rdm_[A-Za-z0-9_-]{4}\.\.\.[A-Za-z0-9_-]{4}$/),
      });
    }
    const everyRead = JSON.stringify([
      listed,
      ...(await Promise.all(made.map((c) => gw.admin('GET', `/redemption-codes/${c.id}`)))),
    ]);
    for (const code of made) expect(everyRead).not.toContain(code.code);
    // The database holds hashes, never a code.
    const rows = JSON.stringify(
      await gw.gateway.services.store.db.selectFrom('redemption_codes').selectAll().execute(),
    );
    for (const code of made) expect(rows).not.toContain(code.code.slice(4));
  });

  it('refuses bad batches', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -1 }, 'amount'],
      [{ amount: 10_000_000 }, 'amount'],
      [{}, 'amount'],
      [{ amount: 1, count: 0 }, 'count'],
      [{ amount: 1, count: 1001 }, 'count'],
      [{ amount: 1, expires_at: now - 1 }, 'expires_at'],
      [{ amount: 1, name: 'x'.repeat(129) }, 'name'],
      [{ amount: 1, code: 'rdm_mine' }, 'code'],
    ];
    for (const [body, field] of cases) {
      const response = await callApi(gw, 'POST', '/redemption-codes', {
        body,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expectApiError(response, 400, 'invalid_request', field);
    }
  });

  it('makes 1000 in one batch', async () => {
    const made = await makeCodes({ amount: 1, count: 1000 });
    expect(new Set(made.map((code) => code.code)).size).toBe(1000);
    expect(new Set(made.map((code) => code.id)).size).toBe(1000);
  });

  it(
    'credits the amount once, answers the account with its new balance, and records the credit',
    async () => {
      const { client, user } = await userClient(1);
      const [code] = await makeCodes({ amount: 2.25 });
      const response = await redeem(client, code?.code);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ id: user.id, balance: 3.25, root: false });
      expect((await client.call('GET', '/me')).body).toMatchObject({ balance: 3.25 });
      const credit = {
        id: expect.any(Number),
        amount: 2.25,
        kind: 'redemption',
        reference: `${code?.id}`,
        created_at: expect.any(Number),
      };
      expect((await client.call('GET', '/me/credits')).body).toEqual({ data: [credit] });
      expect(await creditsOf(user.id)).toEqual([credit]);
      const listed = (await gw.admin('GET', `/redemption-codes/${code?.id}`)).body as CodeView;
      expect(listed).toMatchObject({ status: 'used', used_by: user.id, used_at: expect.any(Number) });

      // Used: refused, to its redeemer as to anyone.
      expectApiError(await redeem(client, code?.code), 400, 'invalid_redemption_code');
      expect((await client.call('GET', '/me')).body).toMatchObject({ balance: 3.25 });
    },
    SLOW,
  );

  it(
    'refuses wrong, used, expired and disabled codes with one answer',
    async () => {
      const { client: first } = await userClient();
      const { client, user } = await userClient();
      const [used, expired, disabled, enabledAgain] = await makeCodes({ amount: 1, count: 4 });
      expect((await redeem(first, used?.code)).status).toBe(200);
      const db = gw.gateway.services.store.db;
      await db
        .updateTable('redemption_codes')
        .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
        .where('id', '=', expired?.id ?? 0)
        .execute();
      const patched = await gw.admin('PATCH', `/redemption-codes/${disabled?.id}`, { status: 'disabled' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: disabled?.id, status: 'disabled' });
      expect(patched.body.code).not.toBe(disabled?.code);
      await gw.admin('PATCH', `/redemption-codes/${enabledAgain?.id}`, { status: 'disabled' });
      const reenabled = await gw.admin('PATCH', `/redemption-codes/${enabledAgain?.id}`, {
        status: 'unused',
      });
      expect(reenabled.body).toMatchObject({ status: 'unused' });

      const statuses = (await gw.admin('GET', '/redemption-codes')).body.data as CodeView[];
      const statusOf = (id: number | undefined) => statuses.find((code) => code.id === id)?.status;
      expect([used, expired, disabled].map((code) => statusOf(code?.id))).toEqual([
        'used',
        'expired',
        'disabled',
      ]);

      const refusals = await Promise.all(
        [used?.code, expired?.code, disabled?.code, 'rdm_wrongwrongwrongwrongwron', `${used?.code}x`].map(
          (code) => redeem(client, code),
        ),
      );
      for (const refusal of refusals) {
        expectApiError(refusal, 400, 'invalid_redemption_code');
        expect((refusal.body as ErrorBody).error.param).toBe('code');
      }
      expect(new Set(refusals.map(messageOf)).size).toBe(1);
      expect((await client.call('GET', '/me')).body).toMatchObject({ balance: 0 });
      expect(await creditsOf(user.id)).toEqual([]);
      // A code enabled again works; surrounding spaces of a pasted code are forgiven.
      expect((await redeem(client, ` ${enabledAgain?.code}\n`)).status).toBe(200);
    },
    SLOW,
  );

  it(
    'credits exactly once when 50 redemptions of one code run at once',
    async () => {
      const redeemers = [];
      for (let index = 0; index < 5; index += 1) redeemers.push(await userClient());
      const [code] = await makeCodes({ amount: 7 });
      // Ten from each account, each from an address of its own: no attempt reaches the throttle.
      const responses = await Promise.all(
        redeemers.flatMap(({ client }) => Array.from({ length: 10 }, () => redeem(client, code?.code))),
      );
      const succeeded = responses.filter((response) => response.status === 200);
      expect(succeeded).toHaveLength(1);
      for (const response of responses.filter((candidate) => candidate.status !== 200))
        expectApiError(response, 400, 'invalid_redemption_code');

      const winner = (succeeded[0]?.body as UserView).id;
      for (const { user } of redeemers) {
        const current = (await gw.admin('GET', `/users/${user.id}`)).body as UserView;
        expect(current.balance).toBe(user.id === winner ? 7 : 0);
        expect(await creditsOf(user.id)).toHaveLength(user.id === winner ? 1 : 0);
      }
      const rows = await gw.gateway.services.store.db
        .selectFrom('balance_credits')
        .selectAll()
        .where('reference', '=', `${code?.id}`)
        .where('kind', '=', 'redemption')
        .execute();
      expect(rows).toHaveLength(1);
      expect((await gw.admin('GET', `/redemption-codes/${code?.id}`)).body).toMatchObject({
        status: 'used',
        used_by: winner,
      });
    },
    SLOW,
  );

  it(
    'is throttled: after 10 wrong codes an account gets 429, even with a good code, and still signs in',
    async () => {
      const username = uniqueName('guesser');
      await gw.admin('POST', '/users', { username, password: PASSWORD });
      const client = await signedInClient(gw, { username, password: PASSWORD });
      for (let attempt = 1; attempt <= 10; attempt += 1)
        expectApiError(await redeem(client, `rdm_guess${attempt}`), 400, 'invalid_redemption_code');
      const [code] = await makeCodes({ amount: 1 });
      const refused = await redeem(client, code?.code);
      expectApiError(refused, 429, 'too_many_attempts');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      expect((await gw.admin('GET', `/redemption-codes/${code?.id}`)).body).toMatchObject({
        status: 'unused',
      });
      // Redemptions are counted apart from sign-ins.
      expect((await signedInClient(gw, { username, password: PASSWORD })).session).not.toBe('');
    },
    SLOW,
  );

  it(
    'are managed by admins only, and redeemed by accounts only',
    async () => {
      const { client } = await userClient();
      expectApiError(await client.call('GET', '/redemption-codes'), 403, 'forbidden');
      expectApiError(
        await client.call('POST', '/redemption-codes', { body: { amount: 1 } }),
        403,
        'forbidden',
      );
      expectApiError(await client.call('GET', '/users/1/credits'), 403, 'forbidden');
      expectApiError(await callApi(gw, 'POST', '/me/redeem', { body: { code: 'x' } }), 401, 'unauthorized');
      // Through a session, a redemption needs the CSRF header as every write does.
      expectApiError(
        await client.call('POST', '/me/redeem', { body: { code: 'x' }, csrf: false }),
        403,
        'csrf_failed',
      );
      const [code] = await makeCodes({ amount: 1 });
      const root = await callApi(gw, 'POST', '/me/redeem', {
        body: { code: code?.code },
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expectApiError(root, 403, 'forbidden');
      expect((await gw.admin('GET', `/redemption-codes/${code?.id}`)).body).toMatchObject({
        status: 'unused',
      });
    },
    SLOW,
  );

  it('are deleted; unknown ids are 404', async () => {
    const [code] = await makeCodes({ amount: 1 });
    const deleted = await gw.admin('DELETE', `/redemption-codes/${code?.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: code?.id, amount: 1 });
    for (const [method, body] of [
      ['DELETE', undefined],
      ['GET', undefined],
      ['PATCH', { status: 'disabled' }],
    ] as const) {
      const response = await gw.admin(method, `/redemption-codes/${code?.id}`, body);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await gw.admin('GET', '/users/999999/credits')).status).toBe(404);
    const badPatch = await gw.admin('PATCH', `/redemption-codes/1`, { status: 'used' });
    expect(badPatch.status).toBe(400);
  });
});

describe('redemption codes and the logs', () => {
  it('never writes a code to the log', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) } as pino.DestinationStream;
    const gateway = await createGateway(
      {
        ...readEnvironment({}),
        dataDir: ':memory:',
        adminToken: TEST_ADMIN_TOKEN,
        logLevel: 'trace',
        port: 0,
        host: '127.0.0.1',
      },
      createLogger('trace', 'json', destination),
    );
    try {
      const origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
      const gw = { origin } as TestGateway;
      const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
      const made = await callApi<{ data: CodeView[] }>(gw, 'POST', '/redemption-codes', {
        body: { amount: 1, count: 2 },
        headers: admin,
      });
      const [first, second] = made.body.data;
      await callApi(gw, 'POST', '/users', {
        body: { username: 'logged', password: PASSWORD },
        headers: admin,
      });
      const signedIn = await callApi(gw, 'POST', '/auth/login', {
        body: { username: 'logged', password: PASSWORD },
      });
      const cookie = (name: string) =>
        signedIn.cookies.find((candidate) => candidate.name === name)?.value ?? '';
      const client = new ConsoleClient(gw, cookie('gw_session'), cookie('gw_csrf'), nextClientIp());
      expect((await client.call('POST', '/me/redeem', { body: { code: first?.code } })).status).toBe(200);
      expect((await client.call('POST', '/me/redeem', { body: { code: first?.code } })).status).toBe(400);
      await callApi(gw, 'GET', '/redemption-codes', { headers: admin });
      expect(lines.length).toBeGreaterThan(0);
      const logged = lines.join('');
      for (const code of [first?.code, second?.code]) expect(logged).not.toContain(code?.slice(4));
    } finally {
      await gateway.close();
    }
  });
});
