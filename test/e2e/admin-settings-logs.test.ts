import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/config/settings-schema.js';
import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway?.close();
});

function expectError(response: { status: number; body: any }, status: number, code: string, field?: string) {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.type).toBe('gateway_api_error');
  if (field !== undefined) {
    expect(response.body.error.message).toContain(`"${field}`);
    expect(response.body.error.param).toBe(field.split(/[.[]/)[0]);
  }
}

describe('settings', () => {
  it('reads every setting with its default', async () => {
    const response = await gateway.admin('GET', '/settings');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      default_max_tokens: 8192,
      stream_idle_timeout_s: 300,
      upstream_timeout_s: 600,
      connect_timeout_s: 10,
      client_headers_timeout_s: 30,
      body_limit_bytes: 134217728,
      web_search_price: 0,
      trusted_proxies: [],
      retry_times: 2,
      image_fetch_allow_private: false,
      channel_failure_threshold: 5,
      channel_probe_interval_s: 30,
      model_cooldown_s: 5,
      model_cooldown_max_s: 300,
      budget_time_zone: 'UTC',
      log_retention_days: 0,
      body_retention_days: 7,
      body_log_max_bytes: 1048576,
      redact_pii: 'off',
      routing_strategy: 'weighted',
      sticky_ttl_s: 600,
      webhook_url: null,
      webhook_secret: null,
      registration: 'closed',
      new_user_balance: 0,
      pricing_public: true,
      stripe_secret_key: null,
      stripe_webhook_secret: null,
      stripe_api_base: 'https://api.stripe.com',
      topup_min_usd: 1,
      topup_reconcile_after_s: 600,
    });
  });

  it('applies a change by the next request and keeps the rest', async () => {
    const changes = {
      retry_times: 5,
      trusted_proxies: ['10.0.0.0/8', '::1'],
      image_fetch_allow_private: true,
    };
    const patched = await gateway.admin('PATCH', '/settings', changes);
    expect(patched.status).toBe(200);
    const expected = { ...defaultSettings, ...changes };
    expect(patched.body).toEqual(expected);
    expect((await gateway.admin('GET', '/settings')).body).toEqual(expected);
    expect(gateway.gateway.services.settings.get()).toEqual(expected);
    expect(await gateway.gateway.services.repositories.settings.get('retry_times')).toBe('5');

    const reset = await gateway.admin('PATCH', '/settings', {
      retry_times: 2,
      trusted_proxies: [],
      image_fetch_allow_private: false,
    });
    expect(reset.body).toEqual(defaultSettings);
  });

  it('returns the settings unchanged for an empty change', async () => {
    const response = await gateway.admin('PATCH', '/settings', {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual(gateway.gateway.services.settings.get());
  });

  it('enforces a lowered body limit on the next request', async () => {
    await gateway.admin('PATCH', '/settings', { body_limit_bytes: 2048 });
    try {
      const response = await fetch(`${gateway.origin}/api/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'x'.repeat(4096) }),
      });
      expect(response.status).toBe(413);
    } finally {
      const restored = await gateway.admin('PATCH', '/settings', { body_limit_bytes: 134217728 });
      expect(restored.body.body_limit_bytes).toBe(134217728);
    }
  });

  it.each([
    ['an unknown setting', { max_connections: 10 }, 'max_connections'],
    ['an integer setting given as text', { retry_times: '3' }, 'retry_times'],
    ['an integer setting given a fraction', { default_max_tokens: 10.5 }, 'default_max_tokens'],
    ['a value below the range', { default_max_tokens: 0 }, 'default_max_tokens'],
    ['a value above the range', { retry_times: 11 }, 'retry_times'],
    ['a body limit below 1 KiB', { body_limit_bytes: 100 }, 'body_limit_bytes'],
    ['a negative price', { web_search_price: -1 }, 'web_search_price'],
    ['a zero idle timeout', { stream_idle_timeout_s: 0 }, 'stream_idle_timeout_s'],
    ['a boolean given as text', { image_fetch_allow_private: 'true' }, 'image_fetch_allow_private'],
    ['trusted proxies given as text', { trusted_proxies: '10.0.0.0/8' }, 'trusted_proxies'],
    ['an invalid trusted proxy', { trusted_proxies: ['10.0.0.0/8', 'proxy.local'] }, 'trusted_proxies[1]'],
    ['a null value', { retry_times: null }, 'retry_times'],
    ['a time zone unknown to IANA', { budget_time_zone: 'Mars/Olympus_Mons' }, 'budget_time_zone'],
    ['an empty time zone', { budget_time_zone: '' }, 'budget_time_zone'],
    ['a null time zone', { budget_time_zone: null }, 'budget_time_zone'],
    ['a negative retention', { log_retention_days: -1 }, 'log_retention_days'],
    ['a negative body retention', { body_retention_days: -1 }, 'body_retention_days'],
    ['a body limit under 1 KiB', { body_log_max_bytes: 1023 }, 'body_log_max_bytes'],
    ['a body limit over 16 MiB', { body_log_max_bytes: 16_777_217 }, 'body_log_max_bytes'],
    ['a fractional body limit', { body_log_max_bytes: 2048.5 }, 'body_log_max_bytes'],
    ['a redaction mode of its own', { redact_pii: 'everything' }, 'redact_pii'],
    ['a retention given as text', { log_retention_days: '30' }, 'log_retention_days'],
    ['a routing strategy of its own', { routing_strategy: 'fastest' }, 'routing_strategy'],
    ['a sticky time to live of zero', { sticky_ttl_s: 0 }, 'sticky_ttl_s'],
    ['a sticky time to live over a week', { sticky_ttl_s: 7 * 86_400 + 1 }, 'sticky_ttl_s'],
    ['a webhook URL of another scheme', { webhook_url: 'ftp://hooks.example.com/in' }, 'webhook_url'],
    ['a webhook URL that is not a URL', { webhook_url: 'hooks.example.com/in' }, 'webhook_url'],
    [
      'a webhook URL over 2048 characters',
      { webhook_url: `https://hooks.example.com/${'a'.repeat(2048)}` },
      'webhook_url',
    ],
    ['a webhook URL given as a list', { webhook_url: ['https://hooks.example.com'] }, 'webhook_url'],
    ['an empty webhook secret', { webhook_secret: '' }, 'webhook_secret'],
    ['a webhook secret given as a number', { webhook_secret: 12345 }, 'webhook_secret'],
    ['a publishable key as the Stripe secret key', { stripe_secret_key: 'pk_test_abc' }, 'stripe_secret_key'],
    ['a Stripe webhook secret without whsec_', { stripe_webhook_secret: 'secret' }, 'stripe_webhook_secret'],
    ['a Stripe API base with a path', { stripe_api_base: 'https://api.stripe.com/v1' }, 'stripe_api_base'],
    ['a Stripe API base that is no URL', { stripe_api_base: 'api.stripe.com' }, 'stripe_api_base'],
    ['a top-up minimum under $0.50', { topup_min_usd: 0.49 }, 'topup_min_usd'],
    ['a reconciliation delay of zero', { topup_reconcile_after_s: 0 }, 'topup_reconcile_after_s'],
    ['a fractional reconciliation delay', { topup_reconcile_after_s: 1.5 }, 'topup_reconcile_after_s'],
  ])('rejects %s', async (_label, body, field) => {
    expectError(
      await gateway.admin('PATCH', '/settings', { retry_times: 3, ...body }),
      400,
      'invalid_request',
      field,
    );
    expect(gateway.gateway.services.settings.get().retry_times).toBe(2);
    expect((await gateway.admin('GET', '/settings')).body).toEqual(defaultSettings);
  });

  it.each([
    ['budget_time_zone', { budget_time_zone: 'Mars/Olympus_Mons' }, 'must be an IANA time zone name'],
    ['webhook_url', { webhook_url: 'ftp://hooks.example.com/in' }, 'must be an http or https URL'],
  ])('says what is wrong with %s', async (field, body, problem) => {
    const response = await gateway.admin('PATCH', '/settings', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_request', param: field });
    expect(response.body.error.message).toContain(`field "${field}": ${problem}`);
  });

  it('takes an IANA time zone and webhook URLs of both schemes, and null again', async () => {
    const changes = {
      budget_time_zone: 'Asia/Kolkata',
      webhook_url: 'http://127.0.0.1:8080/gateway-events?source=test',
    };
    const patched = await gateway.admin('PATCH', '/settings', changes);
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...defaultSettings, ...changes });
    expect(gateway.gateway.services.settings.get()).toMatchObject(changes);
    const secure = await gateway.admin('PATCH', '/settings', { webhook_url: 'https://hooks.example.com/in' });
    expect(secure.body.webhook_url).toBe('https://hooks.example.com/in');

    const reset = await gateway.admin('PATCH', '/settings', { budget_time_zone: 'UTC', webhook_url: null });
    expect(reset.body).toEqual(defaultSettings);
    expect(await gateway.gateway.services.repositories.settings.get('webhook_url')).toBe('null');
  });

  describe('webhook_secret', () => {
    const SECRET = 'whsec_live_0123456789abcdefghij';

    it('is stored in full but read back masked, as channel keys are', async () => {
      const patched = await gateway.admin('PATCH', '/settings', { webhook_secret: SECRET });
      expect(patched.status).toBe(200);
      expect(patched.body.webhook_secret).toBe('whse...ghij');
      const read = await gateway.admin('GET', '/settings');
      expect(read.body).toEqual({ ...defaultSettings, webhook_secret: 'whse...ghij' });
      for (const response of [patched, read]) expect(JSON.stringify(response.body)).not.toContain(SECRET);
      expect(gateway.gateway.services.settings.get().webhook_secret).toBe(SECRET);
      expect(await gateway.gateway.services.repositories.settings.get('webhook_secret')).toBe(
        JSON.stringify(SECRET),
      );

      const cleared = await gateway.admin('PATCH', '/settings', { webhook_secret: null });
      expect(cleared.body).toEqual(defaultSettings);
      expect(gateway.gateway.services.settings.get().webhook_secret).toBeNull();
    });

    it('hides a short secret whole', async () => {
      const patched = await gateway.admin('PATCH', '/settings', { webhook_secret: 'short-secret' });
      expect(patched.body.webhook_secret).toBe('****');
      expect((await gateway.admin('GET', '/settings')).body.webhook_secret).toBe('****');
      await gateway.admin('PATCH', '/settings', { webhook_secret: null });
    });

    it('keeps the stored secret when another setting changes', async () => {
      await gateway.admin('PATCH', '/settings', { webhook_secret: SECRET });
      const other = await gateway.admin('PATCH', '/settings', { retry_times: 3 });
      expect(other.body).toMatchObject({ retry_times: 3, webhook_secret: 'whse...ghij' });
      expect(gateway.gateway.services.settings.get().webhook_secret).toBe(SECRET);
      await gateway.admin('PATCH', '/settings', { retry_times: 2, webhook_secret: null });
    });
  });

  it('rejects a body that is not JSON', async () => {
    const response = await fetch(`${gateway.origin}/api/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: 'retry_times=3',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.code).toBe('invalid_request');
  });
});

describe('usage logs', () => {
  const LOG_FIELDS = [
    'id',
    'request_id',
    'created_at',
    'user_id',
    'key_id',
    'channel_id',
    'model',
    // admin-api section 11.2: the model the client named.
    'requested_model',
    'endpoint',
    'stream',
    'status_code',
    'prompt_tokens',
    'completion_tokens',
    'cached_tokens',
    'cache_write_tokens',
    'reasoning_tokens',
    'cost',
    'latency_ms',
    'first_byte_ms',
    'error',
    // admin-api section 14: what an audio request is billed by.
    'audio_seconds',
    'characters',
  ];

  const log = (fields: Partial<NewUsageLog>): NewUsageLog => ({
    requestId: 'req',
    createdAt: 1_700_000_000,
    userId: 1,
    keyId: 1,
    channelId: 1,
    model: 'gpt-4o',
    endpoint: '/v1/chat/completions',
    stream: false,
    statusCode: 200,
    promptTokens: 10,
    completionTokens: 20,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    latencyMs: 100,
    firstByteMs: null,
    error: null,
    ...fields,
  });

  beforeAll(async () => {
    await gateway.gateway.services.repositories.usageLogs.insertMany([
      log({ requestId: 'req-1', userId: 1, keyId: 11, model: 'gpt-4o', cost: 123_456_789 }),
      log({
        requestId: 'req-2',
        userId: 2,
        keyId: 21,
        model: 'claude-sonnet-4',
        stream: true,
        firstByteMs: 42,
        audioSeconds: 7.5,
      }),
      log({
        requestId: 'req-3',
        userId: 1,
        keyId: 12,
        model: 'claude-sonnet-4',
        statusCode: 502,
        error: 'upstream down',
      }),
      log({
        requestId: 'req-4',
        createdAt: 1_700_000_100,
        userId: 1,
        keyId: 11,
        channelId: null,
        model: 'gpt-4o',
        stream: true,
        promptTokens: 1000,
        completionTokens: 500,
        cachedTokens: 200,
        cacheWriteTokens: 50,
        reasoningTokens: 300,
        cost: 1_000_000_001,
        latencyMs: 1234,
        firstByteMs: 56,
      }),
    ]);
  });

  const requestIds = (response: { body: any }) => response.body.data.map((record: any) => record.request_id);

  it('returns every record newest first with exactly the documented fields', async () => {
    const response = await gateway.admin('GET', '/logs');
    expect(response.status).toBe(200);
    expect(requestIds(response)).toEqual(['req-4', 'req-3', 'req-2', 'req-1']);
    for (const record of response.body.data)
      expect(Object.keys(record).sort()).toEqual([...LOG_FIELDS].sort());
    expect(response.body.data[0]).toEqual({
      id: expect.any(Number),
      request_id: 'req-4',
      created_at: 1_700_000_100,
      user_id: 1,
      key_id: 11,
      channel_id: null,
      model: 'gpt-4o',
      requested_model: 'gpt-4o',
      endpoint: '/v1/chat/completions',
      stream: true,
      status_code: 200,
      prompt_tokens: 1000,
      completion_tokens: 500,
      cached_tokens: 200,
      cache_write_tokens: 50,
      reasoning_tokens: 300,
      cost: 1.000000001,
      latency_ms: 1234,
      first_byte_ms: 56,
      error: null,
      audio_seconds: null,
      characters: null,
    });
    expect(response.body.data[1]).toMatchObject({ status_code: 502, error: 'upstream down', stream: false });
    expect(response.body.data[2]).toMatchObject({ audio_seconds: 7.5, characters: null });
    expect(response.body.data[3].cost).toBe(0.123456789);
  });

  it.each([
    ['user_id=1', ['req-4', 'req-3', 'req-1']],
    ['key_id=11', ['req-4', 'req-1']],
    ['model=claude-sonnet-4', ['req-3', 'req-2']],
    ['user_id=1&model=claude-sonnet-4', ['req-3']],
    ['user_id=1&key_id=21', []],
    ['model=unknown', []],
    ['limit=2', ['req-4', 'req-3']],
    ['limit=2&offset=2', ['req-2', 'req-1']],
    ['user_id=1&limit=1&offset=1', ['req-3']],
    ['offset=10', []],
    ['unknown_param=1', ['req-4', 'req-3', 'req-2', 'req-1']],
  ])('filters with %s', async (query, expected) => {
    const response = await gateway.admin('GET', `/logs?${query}`);
    expect(response.status).toBe(200);
    expect(requestIds(response)).toEqual(expected);
  });

  it.each([
    ['user_id=abc', 'user_id'],
    ['user_id=1.5', 'user_id'],
    ['key_id=-3', 'key_id'],
    ['key_id=', 'key_id'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['offset=-1', 'offset'],
    ['model=a&model=b', 'model'],
  ])('rejects %s', async (query, field) => {
    expectError(await gateway.admin('GET', `/logs?${query}`), 400, 'invalid_request', field);
  });
});
