import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { TokenHttpRequest } from '../../../src/providers/vertex/post-token-request.js';
import { VertexTokenError } from '../../../src/providers/vertex/vertex-token-error.js';
import { VertexTokenSource } from '../../../src/providers/vertex/vertex-token-source.js';
import { startFakeGoogleOAuth, type FakeGoogleOAuth } from '../../fakes/fake-google-oauth.js';
import { makeTestServiceAccount, type TestServiceAccount } from '../../fakes/make-test-service-account.js';

// A spy around the real import, to count how often the private key is imported.
vi.mock('jose', async (importOriginal) => {
  const original = await importOriginal<typeof import('jose')>();
  return { ...original, importPKCS8: vi.fn(original.importPKCS8) };
});

let oauth: FakeGoogleOAuth;
let account: TestServiceAccount;
beforeAll(async () => {
  oauth = await startFakeGoogleOAuth();
  account = makeTestServiceAccount({ tokenUri: oauth.tokenUrl });
  oauth.register(account);
});
afterAll(() => oauth.close());
beforeEach(() => {
  oauth.clear();
  vi.mocked(jose.importPKCS8).mockClear();
});

const tokenOf = (source: VertexTokenSource, key = account.json) =>
  source.token({ key, tokenUrl: oauth.tokenUrl });
/** Every place a key's secret could leak into. */
const secrets = () => [
  account.keyFile.private_key?.split('\n')[3] ?? '',
  account.json.slice(0, 80),
  JSON.stringify(account.keyFile.private_key).slice(40, 120),
];

describe('the JWT bearer grant', () => {
  test('an RS256 assertion with the documented claims, posted as a form', async () => {
    const sent: TokenHttpRequest[] = [];
    const source = new VertexTokenSource({
      now: () => 1_750_000_000_500,
      fetchToken: async (tokenRequest) => {
        sent.push(tokenRequest);
        return { status: 200, body: '{"access_token":"ya29.x","expires_in":3599,"token_type":"Bearer"}' };
      },
    });
    expect(await source.token({ key: account.json, tokenUrl: 'https://oauth2.googleapis.com/token' })).toBe(
      'ya29.x',
    );
    const form = new URLSearchParams(sent[0]?.body);
    expect([...form.keys()]).toEqual(['grant_type', 'assertion']);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const verified = await jose.jwtVerify(form.get('assertion') ?? '', account.publicKey, {
      algorithms: ['RS256'],
      issuer: account.clientEmail,
      audience: 'https://oauth2.googleapis.com/token',
      currentDate: new Date(1_750_000_000_500),
    });
    expect(verified.protectedHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: account.privateKeyId });
    expect(verified.payload).toEqual({
      iss: account.clientEmail,
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      iat: 1_750_000_000,
      exp: 1_750_003_600,
    });
  });

  test('the fake token endpoint takes it, and the token is the one it issued', async () => {
    const token = await tokenOf(new VertexTokenSource());
    expect(oauth.lookUp(token)).toMatchObject({ clientEmail: account.clientEmail });
    expect(oauth.tokenRequests[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});

describe('caching', () => {
  test('a token is reused, and the private key imported once', async () => {
    const source = new VertexTokenSource();
    const first = await tokenOf(source);
    expect(await tokenOf(source)).toBe(first);
    source.invalidate({ key: account.json, tokenUrl: oauth.tokenUrl });
    expect(await tokenOf(source)).not.toBe(first);
    expect(oauth.issuedCount()).toBe(2);
    expect(jose.importPKCS8).toHaveBeenCalledTimes(1);
  });

  test('keys are cached apart', async () => {
    const other = makeTestServiceAccount({ tokenUri: oauth.tokenUrl, accountName: 'second' });
    oauth.register(other);
    const source = new VertexTokenSource();
    const [mine, theirs] = await Promise.all([tokenOf(source), tokenOf(source, other.json)]);
    expect(oauth.lookUp(mine)?.clientEmail).toBe(account.clientEmail);
    expect(oauth.lookUp(theirs)?.clientEmail).toBe(other.clientEmail);
  });

  test('10 concurrent callers share one token request', async () => {
    oauth.script({ type: 'issue', delayMs: 50 });
    const source = new VertexTokenSource();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => tokenOf(source)));
    expect(new Set(tokens).size).toBe(1);
    expect(oauth.tokenRequests).toHaveLength(1);
  });

  test('a caller that gives up does not stop the refresh the others wait for', async () => {
    oauth.script({ type: 'issue', delayMs: 100 });
    const source = new VertexTokenSource();
    const controller = new AbortController();
    const quitter = source.token({ key: account.json, tokenUrl: oauth.tokenUrl, signal: controller.signal });
    const patient = tokenOf(source);
    controller.abort(new Error('client gone'));
    await expect(quitter).rejects.toThrow('client gone');
    expect(oauth.lookUp(await patient)).toBeDefined();
    expect(oauth.tokenRequests).toHaveLength(1);
  });
});

describe('failures', () => {
  test("a refused refresh names the URL, the status and Google's error; it is not cached", async () => {
    oauth.script({
      type: 'error',
      status: 400,
      error: 'invalid_grant',
      errorDescription: 'Invalid JWT Signature.',
    });
    const source = new VertexTokenSource();
    const failed = await tokenOf(source).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(VertexTokenError);
    expect((failed as VertexTokenError).message).toBe(
      `Vertex token request for ${account.clientEmail} to ${oauth.tokenUrl} failed: HTTP 400 invalid_grant: Invalid JWT Signature.`,
    );
    expect(failed).toMatchObject({ status: 400, oauthError: 'invalid_grant', retryable: false });
    expect(oauth.lookUp(await tokenOf(source))).toBeDefined();
    expect(oauth.tokenRequests).toHaveLength(2);
  });

  test('an endpoint that cannot be reached is a retryable error naming the URL', async () => {
    const closed = await startFakeGoogleOAuth();
    await closed.close();
    const failed = await new VertexTokenSource()
      .token({ key: account.json, tokenUrl: closed.tokenUrl })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ name: 'VertexTokenError', status: undefined, retryable: true });
    expect((failed as Error).message).toMatch(new RegExp(`to ${closed.tokenUrl} failed: .*ECONNREFUSED`));
  });

  test('a 200 without a token is an error', async () => {
    const source = new VertexTokenSource({
      fetchToken: async () => ({ status: 200, body: '{"expires_in":3599}' }),
    });
    await expect(tokenOf(source)).rejects.toThrow(/answered 200 without an access_token/);
  });

  test('no error message or stack holds the key', async () => {
    const broken = account.json.replace('"service_account"', '"authorized_user"');
    const pemLine = account.keyFile.private_key?.split('\n')[5] ?? '';
    const damaged = account.json.replace(JSON.stringify(pemLine).slice(1, -1), 'AAAA');
    oauth.script(
      { type: 'error', status: 400, error: 'invalid_grant', errorDescription: 'Invalid JWT Signature.' },
      { type: 'reset' },
    );
    const source = new VertexTokenSource();
    const errors = [
      await tokenOf(source).catch((error: unknown) => error),
      await tokenOf(source).catch((error: unknown) => error),
      await tokenOf(source, broken).catch((error: unknown) => error),
      await tokenOf(source, account.json.slice(0, 300)).catch((error: unknown) => error),
      await tokenOf(source, damaged).catch((error: unknown) => error),
    ];
    expect(errors.map((error) => (error as Error).name)).toEqual(Array(5).fill('VertexTokenError'));
    expect((errors[4] as Error).message).toMatch(/"private_key" cannot sign RS256/);
    for (const error of errors) {
      const text = `${String(error)}\n${(error as Error).stack ?? ''}`;
      for (const secret of secrets()) expect(text).not.toContain(secret);
    }
  });
});
