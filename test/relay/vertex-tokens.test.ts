import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeVertex, type FakeVertex } from '../fakes/fake-vertex.js';
import { makeTestServiceAccount, type TestServiceAccount } from '../fakes/make-test-service-account.js';
import { bearer, send } from '../helpers/client-request.js';
import {
  CLAUDE_UPSTREAM,
  GEMINI_UPSTREAM,
  issuedTokens,
  PROJECT,
  REGION,
  startVertexFixture,
  vertexPath,
  type VertexFixture,
} from './vertex-fixture.js';

/**
 * The access tokens of `vertex` channels (admin-api section 5): the service-account key exchanged
 * once, refreshed ahead of expiry, shared by concurrent requests, and a refused key.
 */

const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
let fx: VertexFixture;
beforeAll(async () => {
  fx = await startVertexFixture();
});
afterAll(() => fx?.close());
beforeEach(() => fx.clear());

/** A service account of its own (so no token is cached for it yet), known to `vertex`'s token endpoint unless told. */
function freshAccount(vertex: FakeVertex, options: { registered: boolean }): TestServiceAccount {
  const account = makeTestServiceAccount({
    tokenUri: vertex.tokenUrl,
    projectId: vertex.project,
    accountName: `account-${Math.random().toString(36).slice(2, 10)}`,
  });
  if (options.registered) vertex.oauth.register(account);
  return account;
}

/** A vertex channel serving `model` (a Gemini model upstream) with the account's key, priced. */
async function vertexChannel(options: {
  vertex: FakeVertex;
  account: TestServiceAccount;
  model: string;
  upstream?: string;
  priority?: number;
}) {
  const id = await fx.addChannel({
    name: `vertex ${options.model}`,
    type: 'vertex',
    base_url: options.vertex.origin,
    keys: [options.account.json],
    config: { region: options.vertex.region, token_url: options.vertex.tokenUrl },
    models: [options.model],
    model_mapping: { [options.model]: options.upstream ?? GEMINI_UPSTREAM },
    priority: options.priority ?? 0,
  });
  await fx.gw.admin('PUT', `/prices/${options.model}`, { input: 1, output: 1 });
  return id;
}

const chat = (model: string) =>
  fx.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello?' }] });
const bearers = (vertex: FakeVertex) => vertex.requests.map((request) => request.headers.authorization);

describe('one access token', () => {
  it('serves many calls, Gemini and Claude, JSON and stream: one token request, the JWT bearer grant', async () => {
    const account = freshAccount(fx.vertex, { registered: true });
    await vertexChannel({ vertex: fx.vertex, account, model: 'tk-gemini' });
    await vertexChannel({ vertex: fx.vertex, account, model: 'tk-claude', upstream: CLAUDE_UPSTREAM });
    await chat('tk-gemini');
    await chat('tk-claude');
    await fx.anthropic.messages
      .stream({ model: 'tk-claude', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })
      .done();
    await fx.anthropic.messages.create({
      model: 'tk-gemini',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello?' }],
    });

    expect(fx.vertex.oauth.tokenRequests).toHaveLength(1);
    const [grant] = fx.vertex.oauth.tokenRequests;
    expect(grant?.form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(grant?.header).toMatchObject({ alg: 'RS256', kid: account.privateKeyId });
    expect(grant?.claims).toMatchObject({
      iss: account.clientEmail,
      aud: fx.vertex.tokenUrl,
      scope: CLOUD_PLATFORM,
    });
    const [token] = issuedTokens(fx.vertex);
    expect(bearers(fx.vertex)).toEqual(Array(4).fill(`Bearer ${token}`));
    expect(fx.vertex.requests.map((request) => request.path)).toEqual([
      vertexPath('google', GEMINI_UPSTREAM, 'generateContent'),
      vertexPath('anthropic', CLAUDE_UPSTREAM, 'rawPredict'),
      vertexPath('anthropic', CLAUDE_UPSTREAM, 'streamRawPredict'),
      vertexPath('google', GEMINI_UPSTREAM, 'generateContent'),
    ]);
  });

  it('is fetched once for concurrent first requests', async () => {
    const account = freshAccount(fx.vertex, { registered: true });
    await vertexChannel({ vertex: fx.vertex, account, model: 'tk-concurrent' });
    fx.vertex.oauth.script({ type: 'issue', delayMs: 200 });
    const replies = await Promise.all(Array.from({ length: 5 }, () => chat('tk-concurrent')));
    expect(replies.map((reply) => reply.choices[0]?.message.content)).toEqual(
      Array(5).fill('Hello from fake Vertex.'),
    );
    expect(fx.vertex.oauth.tokenRequests).toHaveLength(1);
    expect(bearers(fx.vertex)).toEqual(Array(5).fill(`Bearer ${issuedTokens(fx.vertex)[0]}`));
  });
});

describe('a short-lived token', () => {
  let shortLived: FakeVertex;
  beforeAll(async () => {
    shortLived = await startFakeVertex({ project: PROJECT, region: REGION, tokenLifetimeSeconds: 3 });
  });
  afterAll(() => shortLived?.close());

  it('is refreshed ahead of its expiry, while it is still live, and the new one reused', async () => {
    await vertexChannel({ vertex: shortLived, account: shortLived.serviceAccount, model: 'tk-short' });
    await chat('tk-short');
    const [first] = issuedTokens(shortLived);
    // Past half of its 3 s life, the gateway's refresh point for so short a token.
    await sleep(1_600);
    await chat('tk-short');
    expect(shortLived.oauth.lookUp(first ?? '')).toBeDefined();
    await chat('tk-short');
    const tokens = issuedTokens(shortLived);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).not.toBe(first);
    expect(bearers(shortLived)).toEqual([`Bearer ${first}`, `Bearer ${tokens[1]}`, `Bearer ${tokens[1]}`]);
  });
});

describe('a key the token endpoint refuses', () => {
  it('fails over to a direct gemini channel', async () => {
    const account = freshAccount(fx.vertex, { registered: false });
    const refused = await vertexChannel({ vertex: fx.vertex, account, model: 'fo-gemini', priority: 10 });
    const reply = await chat('fo-gemini');
    expect(reply.choices[0]?.message.content).toBe('Hello from fake Gemini.');
    expect(fx.vertex.oauth.tokenRequests.map((record) => record.outcome)).toEqual([
      { status: 400, error: 'invalid_grant', description: 'Invalid grant: account not found' },
    ]);
    expect(fx.vertex.requests).toHaveLength(0);
    expect(fx.directGemini.requests).toHaveLength(1);
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'fo-gemini', channel_id: fx.channels.gemini, status_code: 200 });
    await fx.gw.admin('DELETE', `/channels/${refused}`);
  });

  it('with no other channel, gives the client a gateway error that never holds the key', async () => {
    const account = freshAccount(fx.vertex, { registered: false });
    await vertexChannel({ vertex: fx.vertex, account, model: 'only-refused' });
    const response = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(fx.key),
      body: { model: 'only-refused', messages: [{ role: 'user', content: 'Hello?' }] },
    });
    expect(response.status).toBe(502);
    expect(response.body.error.message).toContain('invalid_grant');
    expect(response.body.error.message).toContain(account.clientEmail);
    expect(fx.vertex.requests).toHaveLength(0);
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'only-refused', status_code: 502, cost: 0 });
    for (const text of [response.text, JSON.stringify(log)]) expectNoKey(text, account);
  });
});

/** Neither the key file nor any piece of its private key. */
function expectNoKey(text: string, account: TestServiceAccount): void {
  const pem = account.keyFile.private_key ?? '';
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  expect(text).not.toContain('PRIVATE KEY');
  expect(text).not.toContain('private_key');
  for (let start = 0; start + 24 <= body.length; start += 24)
    expect(text).not.toContain(body.slice(start, start + 24));
}

describe('a token revoked before its expiry', () => {
  it('is forgotten on the 401 it gets: the channel test and the next requests get a new one', async () => {
    const account = freshAccount(fx.vertex, { registered: true });
    const id = await vertexChannel({ vertex: fx.vertex, account, model: 'tk-revoked' });
    await chat('tk-revoked');
    // Revokes every token of the fake's endpoint: no test after this one may rely on a cached token.
    fx.vertex.oauth.revokeAll();
    const refused = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(fx.key),
      body: { model: 'tk-revoked', messages: [{ role: 'user', content: 'Hello?' }] },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });

    const probe = await fx.gw.admin('POST', `/channels/${id}/test`);
    expect(probe.body).toMatchObject({ ok: true, error: null });
    // The refused key was set aside; enabling the channel again restores it.
    await fx.resetHealth(id);
    await chat('tk-revoked');
    const [first, renewed] = issuedTokens(fx.vertex);
    expect(issuedTokens(fx.vertex)).toHaveLength(2);
    expect(bearers(fx.vertex)).toEqual([first, first, renewed, renewed].map((token) => `Bearer ${token}`));
  });
});
