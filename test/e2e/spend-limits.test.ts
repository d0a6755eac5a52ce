import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { send } from '../helpers/client-request.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';

/**
 * Spend limits through the official SDKs (admin-api section 10): budgets of keys, users and groups
 * refuse the request that does not fit with 429 `budget_exceeded` (403 for `total`) and
 * `Retry-After`, after the balance checks; a model-scoped budget counts its models only; a
 * concurrency cap refuses the request over it; the budgets endpoints show what is used. On SQLite,
 * and on PostgreSQL when `DATABASE_URL` is set.
 */
const ANTHROPIC_KEY = 'anthropic-upstream-key';

const withoutRequestId = (message: string) => message.replace(/ \(request id: [^)]*\)$/, '');

describe.each(gatewayStoreVariants())('spend limits on $name', (variant) => {
  let fx: RelayFixture;
  let anthropicUpstream: FakeUpstream;
  let sequence = 0;

  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100, gateway: variant.options });
    anthropicUpstream = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
    await fx.gw.admin('POST', '/channels', {
      name: 'claude',
      type: 'anthropic',
      base_url: anthropicUpstream.origin,
      keys: [ANTHROPIC_KEY],
      models: ['claude-sonnet-4-5'],
    });
    await fx.gw.admin('PUT', '/prices/claude-sonnet-4-5', { input: 3, output: 15 });
  });
  afterAll(async () => {
    await fx?.close();
    await anthropicUpstream?.close();
    await variant.cleanUp();
  });
  afterEach(() => fx.upstream.clear());

  /** A user of its own (in `group`) with one key carrying `key`'s members, and an OpenAI client. */
  async function customer(options: { key?: object; user?: object; balance?: number; group?: string } = {}) {
    sequence += 1;
    const user = await fx.gw.admin('POST', '/users', {
      username: `customer${sequence}`,
      balance: options.balance ?? 10,
      group: options.group ?? 'default',
      ...options.user,
    });
    expect(user.status).toBe(201);
    const key = await fx.gw.admin('POST', '/keys', { user_id: user.body.id, ...options.key });
    expect(key.status).toBe(201);
    const openai = new OpenAI({ apiKey: key.body.key, baseURL: `${fx.gw.origin}/v1`, maxRetries: 0 });
    return {
      userId: user.body.id as number,
      keyId: key.body.id as number,
      key: key.body.key as string,
      openai,
    };
  }

  const ask = (client: OpenAI, model = 'gpt-4o') =>
    client.chat.completions.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

  /** The SDK's error, and the gateway's message without its ` (request id: ...)` suffix. */
  async function refusal(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const { status, code, headers } = error as InstanceType<typeof OpenAI.APIError>;
    return {
      status,
      code,
      headers,
      message: withoutRequestId((error as { error: { message: string } }).error.message),
    };
  }

  test('a key with a daily request budget is refused with 429, the window and its reset named, once it is used up', async () => {
    const { openai, keyId } = await customer({ key: { budgets: [{ period: 'day', requests: 2 }] } });
    await ask(openai);
    await ask(openai);
    const error = await refusal(ask(openai));
    expect(error.status).toBe(429);
    expect(error.code).toBe('budget_exceeded');
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    const resetsAt = tomorrow.toISOString().replace('.000Z', 'Z');
    expect(error.message).toBe(`key budget exceeded: day limit 2 requests reached, resets at ${resetsAt}`);
    const retryAfter = Number(error.headers?.get('retry-after'));
    const untilReset = (tomorrow.getTime() - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(untilReset) - 2);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilReset) + 1);
    expect(fx.upstream.requests).toHaveLength(2);

    const budgets = await fx.gw.admin('GET', `/keys/${keyId}/budgets`);
    expect(budgets.body.data).toEqual([
      expect.objectContaining({
        scope: 'key',
        id: keyId,
        period: 'day',
        requests: 2,
        used_requests: 2,
        resets_at: tomorrow.getTime() / 1000,
        window_start: tomorrow.getTime() / 1000 - 86_400,
      }),
    ]);
    expect(budgets.body.data[0].used_usd).toBeGreaterThan(0);
  });

  test('the refusal is in the family A shape on the messages and generateContent endpoints too, and in Chinese when asked', async () => {
    const { key } = await customer({ key: { budgets: [{ period: 'week', requests: 0 }] } });
    const anthropic = new Anthropic({ apiKey: key, baseURL: fx.gw.origin, maxRetries: 0 });
    const error = await anthropic.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => undefined,
        (caught: unknown) => caught as InstanceType<typeof Anthropic.APIError>,
      );
    expect(error?.status).toBe(429);
    expect(error?.error).toMatchObject({
      error: {
        code: 'budget_exceeded',
        message: expect.stringMatching(/^key budget exceeded: week limit 0 requests reached, resets at /),
      },
    });
    const chinese = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'accept-language': 'zh-CN' },
      body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chinese.status).toBe(429);
    expect(chinese.body.error.message).toMatch(/^key 预算已用尽: week 限额 0 requests, 重置时间 /);

    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: fx.gw.origin } });
    const geminiError = await gemini.models.generateContent({ model: 'gpt-4o', contents: 'hi' }).then(
      () => undefined,
      (caught: unknown) => caught as { name: string; status: number; message: string },
    );
    expect(geminiError).toMatchObject({ name: 'ApiError', status: 429 });
    expect(JSON.parse(geminiError!.message)).toMatchObject({
      error: {
        code: 'budget_exceeded',
        message: expect.stringMatching(/^key budget exceeded: week limit 0/),
      },
    });
    expect(anthropicUpstream.requests).toHaveLength(0);
    expect(fx.upstream.requests).toHaveLength(0);
  });

  test('a total budget refuses with 403 and never resets; the balance check comes first', async () => {
    const { openai } = await customer({ key: { budgets: [{ period: 'total', usd: 0.000001 }] } });
    const error = await refusal(ask(openai));
    expect(error.status).toBe(403);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toBe('key budget exceeded: total limit $0.000001 reached, resets never');
    expect(error.headers?.get('retry-after')).toBeNull();

    const broke = await customer({ balance: 0, key: { budgets: [{ period: 'total', usd: 0.000001 }] } });
    const balanceFirst = await refusal(ask(broke.openai));
    expect(balanceFirst.code).toBe('insufficient_user_quota');
  });

  test("a group's budget is shared by the keys of every user in it", async () => {
    const team = `team${sequence}`;
    expect(
      (await fx.gw.admin('PUT', `/groups/${team}`, { budgets: [{ period: 'month', requests: 2 }] })).status,
    ).toBe(200);
    await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { groups: ['default', team] });
    const first = await customer({ group: team });
    const second = await customer({ group: team });
    await ask(first.openai);
    await ask(second.openai);
    const error = await refusal(ask(first.openai));
    expect(error.message).toMatch(
      new RegExp(`^group ${team} budget exceeded: month limit 2 requests reached`),
    );
    const group = await fx.gw.admin('GET', `/groups/${team}/budgets`);
    expect(group.body.data[0]).toMatchObject({ scope: 'group', id: team, used_requests: 2 });
  });

  test("a user's budget counts every key of the user; a model-scoped one only its models", async () => {
    const { openai, userId } = await customer({
      user: { budgets: [{ period: 'hours', hours: 5, requests: 1, models: ['gpt-4o-mini'] }] },
    });
    await ask(openai, 'gpt-4o');
    await ask(openai, 'gpt-4o');
    await ask(openai, 'gpt-4o-mini');
    const second = await fx.gw.admin('POST', '/keys', { user_id: userId });
    const other = new OpenAI({ apiKey: second.body.key, baseURL: `${fx.gw.origin}/v1`, maxRetries: 0 });
    const error = await refusal(ask(other, 'gpt-4o-mini'));
    expect(error.message).toMatch(/^user budget exceeded: hours limit 1 requests reached, resets at /);
    const usage = await fx.gw.admin('GET', `/users/${userId}/budgets`);
    const [window] = usage.body.data;
    expect(window).toMatchObject({ scope: 'user', period: 'hours', hours: 5, used_requests: 1 });
    expect(window.resets_at - window.window_start).toBe(5 * 3_600);
  });

  test('a concurrency cap refuses the request over it with Retry-After 1, and frees the slot when a request ends', async () => {
    const { openai } = await customer({ key: { max_concurrency: 1 } });
    fx.upstream.script({ type: 'reply', delayMs: 400 });
    const slow = ask(openai);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const error = await refusal(ask(openai));
    expect(error.status).toBe(429);
    expect(error.code).toBe('concurrency_limit_exceeded');
    expect(error.message).toBe('too many concurrent requests (limit 1)');
    expect(error.headers?.get('retry-after')).toBe('1');
    await slow;
    await fx.gw.gateway.services.tracker.settled();
    await ask(openai);
  });

  test('a stream holds its slot until it ends, and a client that disconnects frees it at once', async () => {
    const { openai } = await customer({ key: { max_concurrency: 1 } });
    fx.upstream.script({ type: 'stall', afterChunks: 1 });
    const abort = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: 'gpt-4o', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { signal: abort.signal },
    );
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    const error = await refusal(ask(openai));
    expect(error.code).toBe('concurrency_limit_exceeded');

    abort.abort();
    let status = 0;
    for (let waited = 0; waited < 1_000 && status !== 200; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await ask(openai).then(
        () => 200,
        (caught: { status: number }) => caught.status,
      );
    }
    expect(status).toBe(200);
  });

  test('a budget changed takes effect on the next request and keeps what its window counted', async () => {
    const { openai, keyId } = await customer({ key: { budgets: [{ period: 'day', requests: 1 }] } });
    await ask(openai);
    await refusal(ask(openai));
    await fx.gw.admin('PATCH', `/keys/${keyId}`, { budgets: [{ period: 'day', requests: 2 }] });
    await ask(openai);
    const error = await refusal(ask(openai));
    expect(error.message).toMatch(/day limit 2 requests reached/);
  });
});
