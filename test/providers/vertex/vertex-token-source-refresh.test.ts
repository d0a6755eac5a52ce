import { describe, expect, test } from 'vitest';
import type { FetchToken } from '../../../src/providers/vertex/post-token-request.js';
import { VertexTokenSource } from '../../../src/providers/vertex/vertex-token-source.js';
import { startFakeGoogleOAuth } from '../../fakes/fake-google-oauth.js';
import { makeTestServiceAccount } from '../../fakes/make-test-service-account.js';

const T0 = 1_750_000_000_000;
const account = makeTestServiceAccount({ tokenUri: 'http://127.0.0.1:9/token', projectId: 'p-1' });
const tokenUrl = 'http://127.0.0.1:9/token';

/** A token endpoint that answers `token-1`, `token-2`, ... living `expiresIn` seconds, or fails when told. */
function scriptedEndpoint(expiresIn: number) {
  const endpoint = { requests: 0, failing: false };
  const fetchToken: FetchToken = async () => {
    endpoint.requests += 1;
    if (endpoint.failing) return { status: 503, body: '{"error":"internal_failure"}' };
    const body = { access_token: `token-${endpoint.requests}`, expires_in: expiresIn, token_type: 'Bearer' };
    return { status: 200, body: JSON.stringify(body) };
  };
  return { endpoint, fetchToken };
}

function clockedSource(options: { expiresIn: number; refreshAheadSeconds?: number }) {
  const clock = { now: T0 };
  const { endpoint, fetchToken } = scriptedEndpoint(options.expiresIn);
  const source = new VertexTokenSource({
    fetchToken,
    now: () => clock.now,
    ...(options.refreshAheadSeconds !== undefined && { refreshAheadSeconds: options.refreshAheadSeconds }),
  });
  const tokenAt = (milliseconds: number) => {
    clock.now = T0 + milliseconds;
    return source.token({ key: account.json, tokenUrl });
  };
  return { endpoint, tokenAt };
}

describe('refresh ahead of expiry', () => {
  test('by default 300 s before a token expires', async () => {
    const { endpoint, tokenAt } = clockedSource({ expiresIn: 3600 });
    expect(await tokenAt(0)).toBe('token-1');
    expect(await tokenAt(3_300_000 - 1)).toBe('token-1');
    expect(endpoint.requests).toBe(1);
    expect(await tokenAt(3_300_000)).toBe('token-2');
    expect(await tokenAt(3_400_000)).toBe('token-2');
    expect(endpoint.requests).toBe(2);
  });

  test('refreshAheadSeconds moves it', async () => {
    const { tokenAt } = clockedSource({ expiresIn: 3600, refreshAheadSeconds: 60 });
    await tokenAt(0);
    expect(await tokenAt(3_540_000 - 1)).toBe('token-1');
    expect(await tokenAt(3_540_000)).toBe('token-2');
  });

  test('a token shorter-lived than twice the margin is refreshed at half its life', async () => {
    const { tokenAt } = clockedSource({ expiresIn: 60 });
    await tokenAt(0);
    expect(await tokenAt(30_000 - 1)).toBe('token-1');
    expect(await tokenAt(30_000)).toBe('token-2');
  });
});

describe('a failed refresh', () => {
  test('ahead of expiry, keeps the token still valid in use, and is tried again on the next call', async () => {
    const { endpoint, tokenAt } = clockedSource({ expiresIn: 3600 });
    await tokenAt(0);
    endpoint.failing = true;
    expect(await tokenAt(3_400_000)).toBe('token-1');
    expect(await tokenAt(3_500_000)).toBe('token-1');
    expect(endpoint.requests).toBe(3);
    endpoint.failing = false;
    expect(await tokenAt(3_500_001)).toBe('token-4');
  });

  test('once the token has expired, fails', async () => {
    const { endpoint, tokenAt } = clockedSource({ expiresIn: 3600 });
    await tokenAt(0);
    endpoint.failing = true;
    await expect(tokenAt(3_600_000)).rejects.toThrow(/HTTP 503 internal_failure/);
  });
});

test('against the fake token endpoint on one clock: a new token before the old one expires', async () => {
  let clock = Date.now();
  const oauth = await startFakeGoogleOAuth({ now: () => clock, tokenLifetimeSeconds: 600 });
  try {
    const live = makeTestServiceAccount({ tokenUri: oauth.tokenUrl });
    oauth.register(live);
    const source = new VertexTokenSource({ now: () => clock });
    const tokenNow = () => source.token({ key: live.json, tokenUrl: oauth.tokenUrl });
    const first = await tokenNow();
    clock += 299_000;
    expect(await tokenNow()).toBe(first);
    clock += 1_000;
    const second = await tokenNow();
    expect(second).not.toBe(first);
    expect(oauth.lookUp(first)).toBeDefined();
    expect(oauth.issuedCount()).toBe(2);
  } finally {
    await oauth.close();
  }
});
