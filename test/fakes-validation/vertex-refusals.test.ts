import { generateKeyPairSync } from 'node:crypto';
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { VertexTokenSource } from '../../src/providers/vertex/vertex-token-source.js';
import { startFakeVertex, type FakeVertex } from '../fakes/fake-vertex.js';

const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
let clock = Date.now();
let fake: FakeVertex;
let token: string;
beforeAll(async () => {
  fake = await startFakeVertex({ project: 'p-1', region: 'europe-west1', now: () => clock });
  token = await exchange(await assertion());
});
afterAll(() => fake.close());
beforeEach(() => fake.clear());

/** An assertion for the fake's account, with claims and key overridable. */
async function assertion(
  options: { claims?: JWTPayload; pem?: string; kid?: string; lifetime?: number } = {},
): Promise<string> {
  const { keyFile } = fake.serviceAccount;
  const key = await importPKCS8(options.pem ?? keyFile.private_key ?? '', 'RS256');
  const iat = Math.floor(clock / 1000);
  return new SignJWT({ scope: CLOUD_PLATFORM, ...options.claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: options.kid ?? keyFile.private_key_id ?? '' })
    .setIssuer(String(options.claims?.iss ?? keyFile.client_email))
    .setAudience(String(options.claims?.aud ?? fake.tokenUrl))
    .setIssuedAt(iat)
    .setExpirationTime(iat + (options.lifetime ?? 3600))
    .sign(key);
}

async function postToken(form: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const answer = await request(fake.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: answer.statusCode, body: await answer.body.json() };
}

async function exchange(signed: string): Promise<string> {
  const answer = await postToken({ grant_type: JWT_BEARER, assertion: signed });
  return (answer.body as { access_token: string }).access_token;
}

async function call(path: string, body: unknown, bearer: string | undefined = token) {
  const answer = await request(`${fake.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer && { authorization: `Bearer ${bearer}` }) },
    body: JSON.stringify(body),
  });
  return { status: answer.statusCode, body: await answer.body.json() };
}

const gemini = (model: string, method = 'generateContent', where = 'projects/p-1/locations/europe-west1') =>
  `/v1/${where}/publishers/google/models/${model}:${method}`;
const claude = (model: string, method = 'rawPredict', where = 'projects/p-1/locations/europe-west1') =>
  `/v1/${where}/publishers/anthropic/models/${model}:${method}`;
const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
const claudeBody = {
  anthropic_version: 'vertex-2023-10-16',
  max_tokens: 10,
  messages: [{ role: 'user', content: 'hi' }],
};
const googleError = (code: number, status: string, message: string) => ({
  error: { code, status, message: expect.stringContaining(message) as unknown },
});

describe("the fake token endpoint checks what Google's does", () => {
  test('a good assertion gets a Bearer token that lives the configured time', async () => {
    const answer = await postToken({ grant_type: JWT_BEARER, assertion: await assertion() });
    expect(answer).toEqual({
      status: 200,
      body: {
        access_token: expect.stringMatching(/^ya29\./) as unknown,
        expires_in: 3599,
        token_type: 'Bearer',
      },
    });
  });

  const refusals: [string, () => Promise<Record<string, string>>, string, string][] = [
    [
      'a signature of another key',
      async () => ({ pem: otherPem() }),
      'invalid_grant',
      'Invalid JWT Signature.',
    ],
    [
      'a kid that is not the key',
      async () => ({ kid: 'f'.repeat(40) }),
      'invalid_grant',
      'Invalid JWT Signature.',
    ],
    [
      'an unknown account',
      async () => ({ iss: 'nobody@p-1.iam.gserviceaccount.com' }),
      'invalid_grant',
      'account not found',
    ],
    [
      'another audience',
      async () => ({ aud: 'https://example.com/token' }),
      'invalid_grant',
      'Failed audience check',
    ],
    ['a lifetime over an hour', async () => ({ lifetime: '3601' }), 'invalid_grant', 'short-lived token'],
    ['no scope', async () => ({ scope: '' }), 'invalid_scope', 'Invalid OAuth scope'],
  ];
  test.each(refusals)('%s is refused', async (_rule, make, error, description) => {
    const { pem, kid, lifetime, ...claims } = await make();
    const signed = await assertion({
      claims,
      ...(pem && { pem }),
      ...(kid && { kid }),
      ...(lifetime && { lifetime: Number(lifetime) }),
    });
    const answer = await postToken({ grant_type: JWT_BEARER, assertion: signed });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error,
      error_description: expect.stringContaining(description) as unknown,
    });
  });

  test('an expired assertion and a wrong grant type are refused', async () => {
    const expired = await assertion({ lifetime: -10 });
    expect((await postToken({ grant_type: JWT_BEARER, assertion: expired })).body).toMatchObject({
      error: 'invalid_grant',
    });
    expect((await postToken({ grant_type: 'client_credentials' })).body).toMatchObject({
      error: 'unsupported_grant_type',
    });
    expect(fake.oauth.issuedCount()).toBe(0);
  });
});

describe('the fake Vertex API refuses what Vertex refuses', () => {
  test('no token, an unknown token, an expired token: 401 UNAUTHENTICATED', async () => {
    expect(await call(gemini('gemini-2.5-pro'), geminiBody, '')).toEqual({
      status: 401,
      body: googleError(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential.'),
    });
    const invalid = googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    expect(await call(gemini('gemini-2.5-pro'), geminiBody, 'ya29.made-up')).toEqual({
      status: 401,
      body: invalid,
    });
    const shortLived = await startFakeVertex({ tokenLifetimeSeconds: 60, now: () => clock });
    try {
      const tokens = new VertexTokenSource({ now: () => clock });
      const fresh = await tokens.token({
        key: shortLived.serviceAccount.json,
        tokenUrl: shortLived.tokenUrl,
      });
      const path = gemini('gemini-2.5-pro', 'generateContent', 'projects/fake-project/locations/us-central1');
      const send = () =>
        request(`${shortLived.origin}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fresh}` },
          body: JSON.stringify(geminiBody),
        }).then((answer) => answer.body.json().then((body) => ({ status: answer.statusCode, body })));
      expect((await send()).status).toBe(200);
      clock += 61_000;
      expect(await send()).toEqual({ status: 401, body: invalid });
    } finally {
      clock = Date.now();
      await shortLived.close();
    }
  });

  test('a token without the cloud-platform scope: 403', async () => {
    const narrow = await exchange(
      await assertion({ claims: { scope: 'https://www.googleapis.com/auth/userinfo.email' } }),
    );
    expect(await call(gemini('gemini-2.5-pro'), geminiBody, narrow)).toEqual({
      status: 403,
      body: googleError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.'),
    });
  });

  test('another project: 403; another region, an unknown or misfiled model: 404; a Claude model on generateContent: 400', async () => {
    const other = await call(
      gemini('gemini-2.5-pro', 'generateContent', 'projects/p-2/locations/europe-west1'),
      geminiBody,
    );
    expect(other).toEqual({
      status: 403,
      body: googleError(403, 'PERMISSION_DENIED', "Permission 'aiplatform.endpoints.predict' denied"),
    });
    const notFound = googleError(
      404,
      'NOT_FOUND',
      'was not found or your project does not have access to it',
    );
    const elsewhere = await call(
      gemini('gemini-2.5-pro', 'generateContent', 'projects/p-1/locations/us-central1'),
      geminiBody,
    );
    expect(elsewhere).toEqual({ status: 404, body: notFound });
    expect(await call(gemini('claude-sonnet-4@20250514'), claudeBody)).toEqual({
      status: 404,
      body: notFound,
    });
    const wrongMethod = `/v1/projects/p-1/locations/europe-west1/publishers/anthropic/models/claude-sonnet-4@20250514:generateContent`;
    expect(await call(wrongMethod, geminiBody)).toEqual({
      status: 400,
      body: googleError(
        400,
        'FAILED_PRECONDITION',
        'claude-sonnet-4@20250514 is not supported in the generateContent API.',
      ),
    });
  });

  test('Gemini contents need a role, even a lone one', async () => {
    const answer = await call(gemini('gemini-2.5-pro'), { contents: [{ parts: [{ text: 'hi' }] }] });
    expect(answer).toEqual({
      status: 400,
      body: googleError(
        400,
        'INVALID_ARGUMENT',
        'Unable to submit request because Please use a valid role: user, model.',
      ),
    });
  });

  const claudeRefusals: [string, Record<string, unknown>, string][] = [
    ['a model member', { ...claudeBody, model: 'claude-sonnet-4' }, 'model: Extra inputs are not permitted'],
    [
      'no anthropic_version',
      { ...claudeBody, anthropic_version: undefined },
      'anthropic_version: Field required',
    ],
    [
      'a first-party API version',
      { ...claudeBody, anthropic_version: '2023-06-01' },
      'anthropic_version: Input should be',
    ],
    ['no max_tokens', { ...claudeBody, max_tokens: undefined }, 'max_tokens: Field required'],
  ];
  test.each(claudeRefusals)('Claude: %s is refused in Anthropic shape', async (_rule, body, message) => {
    expect(await call(claude('claude-sonnet-4@20250514'), body)).toEqual({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining(message) as unknown },
        request_id: 'req_vrtx_fake',
      },
    });
  });

  test('a Claude stream is the Anthropic stream with a vertex_event after message_start', async () => {
    const answer = await request(`${fake.origin}${claude('claude-sonnet-4@20250514', 'streamRawPredict')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...claudeBody, stream: true }),
    });
    const events = [...(await answer.body.text()).matchAll(/^event: (\S+)$/gm)].map((match) => match[1]);
    expect(answer.statusCode).toBe(200);
    expect(events.slice(0, 3)).toEqual(['message_start', 'vertex_event', 'content_block_start']);
    expect(events.at(-1)).toBe('message_stop');
  });
});

function otherPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
