import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { uniqueSchemaName } from '../helpers/test-stores.js';

async function chat(fx: RelayFixture, body: Record<string, unknown> = {}, language?: string) {
  const response = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fx.key}`,
      'content-type': 'application/json',
      ...(language && { 'accept-language': language }),
    },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const requestIdSuffix = / \(request id: [0-9a-f]{32}\)$/;

test('pre-charge refusals, in the order of the billing rules', async () => {
  const fx = await startRelayFixture({ balance: 0 });
  try {
    const broke = await chat(fx);
    expect(broke.status).toBe(403);
    expect(broke.body.error.code).toBe('insufficient_user_quota');
    expect(broke.body.error.message.replace(requestIdSuffix, '')).toBe('用户额度不足, 剩余额度: $0.000000');

    // pre-charge of max_tokens 1000: (~8 input * 2.5 + 1000 * 10) / 1e6 ≈ $0.01002
    await fx.gw.admin('POST', `/users/${fx.userId}/topup`, { amount: 0.005 });
    const poor = await chat(fx, { max_tokens: 1000 });
    expect(poor.status).toBe(403);
    expect(poor.body.error.code).toBe('insufficient_user_quota');
    expect(poor.body.error.message).toMatch(
      /^预扣费额度失败, 用户剩余额度: \$0\.005000, 需要预扣费额度: \$0\.0100\d\d \(request id: [0-9a-f]{32}\)$/,
    );

    await fx.gw.admin('POST', `/users/${fx.userId}/topup`, { amount: 10 });
    await fx.gw.admin('PATCH', `/keys/${fx.keyId}`, { unlimited_quota: false, quota: 0.002 });
    const capped = await chat(fx, { max_tokens: 1000 });
    expect(capped.status).toBe(403);
    expect(capped.body.error.code).toBe('pre_consume_token_quota_failed');
    expect(capped.body.error.message).toMatch(
      /^token quota is not enough, token remain quota: \$0\.002000, need quota: \$0\.0100\d\d \(request id/,
    );
    expect(fx.upstream.requests).toHaveLength(0);

    // within the cap it works, and the key's quota shrinks by the real cost
    const fits = await chat(fx, { max_tokens: 100 });
    expect(fits.status).toBe(200);
    const key = (await fx.gw.admin('GET', `/keys/${fx.keyId}`)).body;
    const [log] = await fx.logs();
    expect(key.quota).toBeCloseTo(0.002 - log.cost, 12);
    expect(key.used_quota).toBeCloseTo(log.cost, 12);
  } finally {
    await fx.close();
  }
});

test('the default output cap is default_max_tokens when the request names none', async () => {
  const fx = await startRelayFixture({ balance: 0.05 });
  try {
    // 8192 * 10 / 1e6 = $0.08192 > $0.05
    expect((await chat(fx)).status).toBe(403);
    await fx.gw.admin('PATCH', '/settings', { default_max_tokens: 1000 });
    expect((await chat(fx)).status).toBe(200);
  } finally {
    await fx.close();
  }
});

test('group ratio multiplies the cost', async () => {
  const fx = await startRelayFixture();
  try {
    await fx.gw.admin('PUT', '/groups/default', { ratio: 0.5 });
    await chat(fx);
    const [log] = await fx.logs();
    expect(log.cost).toBe(0.00008);
  } finally {
    await fx.close();
  }
});

const variants = [{ name: 'sqlite', databaseUrl: undefined as string | undefined }];
if (process.env.DATABASE_URL) variants.push({ name: 'postgres', databaseUrl: process.env.DATABASE_URL });

describe.each(variants)('no overspend under concurrency on $name', ({ databaseUrl }) => {
  test('60 concurrent requests against a balance that covers a few pre-charges', async () => {
    const schema = uniqueSchemaName();
    // each pre-charge: about 0.00102 USD (max_tokens 100 at $10/M plus input); the balance covers 5
    const fx = await startRelayFixture({
      balance: 0.0052,
      gateway: databaseUrl ? { databaseUrl, databaseSchema: schema } : {},
    });
    try {
      fx.upstream.scriptAlways({ type: 'reply', delayMs: 30 });
      const results = await Promise.all(Array.from({ length: 60 }, () => chat(fx, { max_tokens: 100 })));
      const succeeded = results.filter((result) => result.status === 200).length;
      const refused = results.filter((result) => result.status === 403).length;
      expect(succeeded + refused).toBe(60);
      expect(succeeded).toBeGreaterThanOrEqual(5);
      const user = await fx.user();
      const logs = await fx.logs();
      const charged = logs.reduce((sum: number, log: { cost: number }) => sum + log.cost, 0);
      expect(logs.filter((log: { status_code: number }) => log.status_code === 200)).toHaveLength(succeeded);
      expect(user.balance).toBeGreaterThanOrEqual(0);
      expect(user.balance).toBeCloseTo(0.0052 - charged, 12);
      expect(user.used).toBeCloseTo(charged, 12);
    } finally {
      if (databaseUrl)
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(fx.gw.gateway.services.store.db);
      await fx.close();
    }
  });
});
