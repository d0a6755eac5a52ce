import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';
import { realtimeUsage } from '../fakes/openai-realtime-response.js';
import { rawSession, refusedUpgrade, sdkSession } from '../realtime/realtime-clients.js';

/**
 * `GET /v1/realtime` (admin-api section 14) with the official `openai` SDK's `OpenAIRealtimeWS` as
 * the client: the session opens through the gateway's checks, every event passes both ways, and
 * each `response.done` is charged at once on its usage, one usage record per response. On SQLite,
 * and on PostgreSQL when `DATABASE_URL` is set.
 */
const UPSTREAM_KEY = 'realtime-upstream-key';
const nano = (usd: number) => Math.round(usd * 1e9);
/** USD per million tokens: text in, cached in, text out, audio in, audio out. */
const PRICE = { input: 4, cached_input: 0.4, output: 16, input_audio: 32, output_audio: 64 };

describe.each(gatewayStoreVariants())('realtime on $name', (variant) => {
  let gw: TestGateway;
  let upstream: FakeOpenAI;
  let userId: number;
  let key: string;
  let openai: OpenAI;

  const settled = async () => {
    await gw.gateway.services.tracker.settled();
    await gw.gateway.services.ledger.storeRecords();
  };
  const logsOf = async (requestId: string) => {
    await settled();
    const logs = (await gw.admin('GET', '/logs?limit=1000')).body.data as any[];
    return logs
      .filter((log) => log.request_id === requestId || log.request_id.startsWith(`${requestId}-`))
      .sort((a, b) => a.request_id.localeCompare(b.request_id));
  };
  const balanceOf = async (id: number) => {
    await settled();
    return nano((await gw.admin('GET', `/users/${id}`)).body.balance);
  };
  /** What a response costs at `PRICE`, worked out by hand from its usage (nano-USD). */
  const costOf = (usage: {
    input: number;
    inputAudio: number;
    cached: number;
    cachedAudio: number;
    output: number;
    outputAudio: number;
  }) => {
    const uncachedText = usage.input - usage.inputAudio - (usage.cached - usage.cachedAudio);
    const uncachedAudio = usage.inputAudio - usage.cachedAudio;
    return Math.round(
      (uncachedText * nano(PRICE.input) +
        uncachedAudio * nano(PRICE.input_audio) +
        usage.cached * nano(PRICE.cached_input) +
        (usage.output - usage.outputAudio) * nano(PRICE.output) +
        usage.outputAudio * nano(PRICE.output_audio)) /
        1e6,
    );
  };

  async function newUser(balance: number, keyFields: Record<string, unknown> = {}) {
    const user = await gw.admin('POST', '/users', {
      username: `rt-${Math.random().toString(36).slice(2)}`,
      balance,
    });
    const created = await gw.admin('POST', '/keys', { user_id: user.body.id, ...keyFields });
    return {
      userId: user.body.id as number,
      key: created.body.key as string,
      keyId: created.body.id as number,
    };
  }

  beforeAll(async () => {
    upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
    gw = await startTestGateway(variant.options);
    await gw.admin('POST', '/channels', {
      name: 'realtime',
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: ['gpt-realtime', 'voice', 'unpriced-realtime'],
      model_mapping: { voice: 'gpt-realtime-mini' },
      endpoints: ['realtime'],
    });
    // A channel that serves a model for chat only.
    await gw.admin('POST', '/channels', {
      name: 'chat',
      type: 'openai',
      base_url: upstream.origin,
      keys: [UPSTREAM_KEY],
      models: ['gpt-4o'],
    });
    for (const model of ['gpt-realtime', 'voice', 'gpt-4o']) await gw.admin('PUT', `/prices/${model}`, PRICE);
    ({ userId, key } = await newUser(10));
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
    await variant.cleanUp();
  });
  beforeEach(() => upstream.clear());

  describe('a session through the gateway', () => {
    test('events pass both ways; each response.done is one usage record, charged at the price', async () => {
      const before = await balanceOf(userId);
      const { realtime, events, event, upgraded, closed, errors } = sdkSession(openai, 'gpt-realtime');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      expect(requestId).toMatch(/^[0-9a-f]{32}$/);
      expect((await upgraded).headers['x-gateway-model']).toBe('gpt-realtime');
      const created = await event('session.created');
      expect(created.session).toMatchObject({ type: 'realtime', model: 'gpt-realtime' });

      realtime.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
      await event('session.updated');
      const first = {
        input: 1200,
        inputAudio: 700,
        cached: 300,
        cachedAudio: 100,
        output: 90,
        outputAudio: 0,
      };
      const second = {
        input: 2500,
        inputAudio: 1500,
        cached: 1000,
        cachedAudio: 600,
        output: 400,
        outputAudio: 350,
      };
      upstream.realtime.script(
        {
          text: 'Hello there, friend!',
          usage: {
            inputTokens: first.input,
            inputAudioTokens: first.inputAudio,
            cachedTokens: first.cached,
            cachedAudioTokens: first.cachedAudio,
            outputTokens: first.output,
            outputAudioTokens: first.outputAudio,
          },
        },
        {
          usage: {
            inputTokens: second.input,
            inputAudioTokens: second.inputAudio,
            cachedTokens: second.cached,
            cachedAudioTokens: second.cachedAudio,
            outputTokens: second.output,
            outputAudioTokens: second.outputAudio,
          },
        },
      );
      realtime.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] },
      });
      realtime.send({ type: 'response.create' });
      const done = await event('response.done');
      expect(done.response.usage).toMatchObject({ input_tokens: 1200, output_tokens: 90 });
      const deltas = events.filter((item) => item.type === 'response.output_text.delta');
      expect(deltas.map((item) => item.delta).join('')).toBe('Hello there, friend!');
      realtime.send({ type: 'response.create', response: { output_modalities: ['audio'] } });
      await event('response.done', 2);

      // Server events reach the client in the upstream's order, unchanged.
      const connection = await upstream.realtime.connection();
      expect(events.map((item) => item.type)).toEqual(connection.sent.map((item) => item.type));
      expect(JSON.stringify(events)).toBe(JSON.stringify(connection.sent));
      expect(connection.events.map((item) => (item as { type: string }).type)).toEqual([
        'session.update',
        'conversation.item.create',
        'response.create',
        'response.create',
      ]);
      expect(connection.request.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);

      realtime.close();
      expect(await closed).toEqual({ code: 1000, reason: 'OK' });
      expect(await connection.closed).toEqual({ code: 1000, reason: 'OK' });
      expect(errors).toEqual([]);

      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 3,
        {
          timeoutMs: 5_000,
          what: 'the session and its two responses recorded',
        },
      );
      expect(logs.map((log) => log.request_id)).toEqual([requestId, `${requestId}-1`, `${requestId}-2`]);
      expect(logs[0]).toMatchObject({ endpoint: 'realtime', cost: 0, status_code: 200, error: null });
      expect(logs[1]).toMatchObject({
        endpoint: 'realtime',
        model: 'gpt-realtime',
        status_code: 200,
        prompt_tokens: 1200,
        cached_tokens: 300,
        completion_tokens: 90,
      });
      expect(nano(logs[1].cost)).toBe(costOf(first));
      expect(nano(logs[2].cost)).toBe(costOf(second));
      expect(before - (await balanceOf(userId))).toBe(costOf(first) + costOf(second));
    });
  });

  describe('refused at the upgrade, before any upstream connection', () => {
    const url = (query: string) => `${gw.origin.replace('http:', 'ws:')}/v1/realtime${query}`;
    const bearer = (value: string) => ({ headers: { authorization: `Bearer ${value}` } });
    const expectRefused = async (
      refusal: Promise<{ status: number; headers: Record<string, unknown>; body: any }>,
      status: number,
      error: { message: string; code: string },
    ) => {
      const refused = await refusal;
      expect(refused.status).toBe(status);
      const requestId = refused.headers['x-gateway-request-id'];
      expect(requestId).toMatch(/^[0-9a-f]{32}$/);
      expect(refused.body).toEqual({
        error: {
          message: `${error.message} (request id: ${requestId})`,
          type: 'gateway_api_error',
          param: '',
          code: error.code,
        },
      });
      return refused;
    };

    test('a wrong key, in a header or in the subprotocol: 401 Invalid token, in the language asked for', async () => {
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer('sk-wrong')), 401, {
        message: 'Invalid token',
        code: '',
      });
      await expectRefused(
        refusedUpgrade(url('?model=gpt-realtime'), {
          protocols: ['realtime', 'openai-insecure-api-key.sk-wrong'],
          headers: { 'accept-language': 'zh-CN' },
        }),
        401,
        { message: '无效的令牌', code: '' },
      );
      // Only `Authorization` and the subprotocol carry a key here.
      await expectRefused(
        refusedUpgrade(url('?model=gpt-realtime'), { headers: { 'x-api-key': key } }),
        401,
        {
          message: 'Invalid token',
          code: '',
        },
      );
      expect(upstream.requests).toEqual([]);
    });

    test('a disabled or expired key is refused like a wrong one', async () => {
      const disabled = await newUser(10, { status: 'disabled' });
      const expired = await newUser(10, { expires_at: Math.floor(Date.now() / 1000) - 60 });
      for (const presented of [disabled.key, expired.key])
        await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer(presented)), 401, {
          message: 'Invalid token',
          code: '',
        });
      expect(upstream.requests).toEqual([]);
    });

    test('the IP allow list, with the client address read as for HTTP (trusted proxies only)', async () => {
      const limited = await newUser(10, { ip_allow_list: ['203.0.113.7'] });
      const forwarded = { authorization: `Bearer ${limited.key}`, 'x-forwarded-for': '203.0.113.7' };
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), { headers: forwarded }), 403, {
        message: '您的 IP 不在令牌允许访问的列表中',
        code: 'access_denied',
      });
      expect(upstream.requests).toEqual([]);
      await gw.admin('PATCH', '/settings', { trusted_proxies: ['127.0.0.1'] });
      try {
        const session = rawSession(gw.origin, { headers: forwarded });
        await session.next('session.created');
        session.socket.close();
        await session.closed;
      } finally {
        await gw.admin('PATCH', '/settings', { trusted_proxies: [] });
      }
    });

    test('Model Limits, no channel for the endpoint, no model, no price, a channel pin', async () => {
      const limited = await newUser(10, { model_limits: ['voice'] });
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer(limited.key)), 403, {
        message: 'This token has no access to model gpt-realtime',
        code: '',
      });
      // gpt-4o has a channel, for chat only.
      await expectRefused(refusedUpgrade(url('?model=gpt-4o'), bearer(key)), 503, {
        message: 'No available channel for model gpt-4o under group default (distributor)',
        code: 'model_not_found',
      });
      await expectRefused(refusedUpgrade(url(''), bearer(key)), 400, {
        message: 'Model name not specified, model name cannot be empty',
        code: '',
      });
      await expectRefused(refusedUpgrade(url('?model=unpriced-realtime'), bearer(key)), 403, {
        message:
          'The price of model unpriced-realtime has not been configured by the administrator yet, so the model is not open for use',
        code: 'model_price_error',
      });
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer(`${key}-1`)), 403, {
        message: '普通用户不支持指定渠道',
        code: '',
      });
      expect(upstream.requests).toEqual([]);
    });

    test('no balance: 403 insufficient_user_quota; a full budget: 403 or 429 budget_exceeded', async () => {
      const broke = await newUser(0);
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer(broke.key)), 403, {
        message: '用户额度不足, 剩余额度: $0.000000',
        code: 'insufficient_user_quota',
      });
      const budgeted = await newUser(10, { budgets: [{ period: 'total', requests: 1 }] });
      const session = sdkSession(
        new OpenAI({ apiKey: budgeted.key, baseURL: `${gw.origin}/v1` }),
        'gpt-realtime',
      );
      await session.event('session.created');
      session.realtime.send({ type: 'response.create' });
      await session.event('response.done');
      session.realtime.close();
      await session.closed;
      await settled();
      await expectRefused(refusedUpgrade(url('?model=gpt-realtime'), bearer(budgeted.key)), 403, {
        message: 'key budget exceeded: total limit 1 requests reached, resets never',
        code: 'budget_exceeded',
      });
      // A response capped at 10 output tokens fits a daily 0.001 USD (10 x 64 / 1e6), and costs more.
      const daily = await newUser(10, { budgets: [{ period: 'day', usd: 0.001 }] });
      const spender = sdkSession(
        new OpenAI({ apiKey: daily.key, baseURL: `${gw.origin}/v1` }),
        'gpt-realtime',
      );
      await spender.event('session.created');
      upstream.realtime.script({ usage: { outputTokens: 100, outputAudioTokens: 100 } });
      spender.realtime.send({ type: 'response.create', response: { max_output_tokens: 10 } });
      await spender.event('response.done');
      expect(await spender.closed).toEqual({ code: 1008, reason: 'insufficient_quota' });
      const refused = await refusedUpgrade(url('?model=gpt-realtime'), bearer(daily.key));
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('budget_exceeded');
      expect(refused.body.error.message).toMatch(
        /^key budget exceeded: day limit \$0\.001000 reached, resets at /,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    test('another path upgraded: 404 Invalid URL, as an HTTP request would get', async () => {
      const refused = await refusedUpgrade(`${gw.origin.replace('http:', 'ws:')}/v1/responses`, bearer(key));
      expect(refused.status).toBe(404);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: '' });
      expect(refused.body.error.message).toMatch(/^Invalid URL \(GET \/v1\/responses\) \(request id: /);
    });
  });

  describe('auth and subprotocols', () => {
    test('a browser sends its key as a subprotocol: `realtime` is echoed, the key never', async () => {
      const session = rawSession(gw.origin, { protocols: ['realtime', `openai-insecure-api-key.${key}`] });
      await session.next('session.created');
      expect(session.socket.protocol).toBe('realtime');
      const connection = await upstream.realtime.connection();
      // The upstream hears the channel's key, in a header, and no subprotocol of the client's.
      expect(connection.request.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
      expect(connection.protocols).toEqual([]);
      expect(JSON.stringify(connection.request.headers)).not.toContain(key);
      session.socket.ping(Buffer.from('still there?'));
      const [pong] = (await new Promise((resolve) =>
        session.socket.once('pong', (...args) => resolve(args)),
      )) as [Buffer];
      expect(String(pong)).toBe('still there?');
      session.socket.close();
      await session.closed;
    });

    test('a Bearer key without subprotocols opens a session with none', async () => {
      const session = rawSession(gw.origin, { headers: { authorization: `Bearer ${key}` } });
      await session.next('session.created');
      expect(session.socket.protocol).toBe('');
      session.socket.close(4001, 'done here');
      const connection = await upstream.realtime.connection();
      expect(await connection.closed).toEqual({ code: 4001, reason: 'done here' });
    });
  });

  describe('the model', () => {
    test('the channel maps it: the upgrade and a session.update naming it reach the upstream by its own name', async () => {
      const { realtime, event, errors, errorCount, upgraded } = sdkSession(openai, 'voice');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      await event('session.created');
      const connection = await upstream.realtime.connection();
      expect(connection.request.query.get('model')).toBe('gpt-realtime-mini');
      realtime.send({
        type: 'session.update',
        session: { type: 'realtime', model: 'voice', instructions: 'Be kind.' },
      });
      await event('session.updated');
      expect(await connection.received('session.update')).toEqual({
        type: 'session.update',
        session: { type: 'realtime', model: 'gpt-realtime-mini', instructions: 'Be kind.' },
      });
      // Another model would be billed at this one's price: refused, not forwarded.
      realtime.send({
        type: 'session.update',
        event_id: 'evt_swap',
        session: { type: 'realtime', model: 'gpt-realtime' },
      });
      await errorCount(1);
      expect(errors[0]?.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'session.model',
        event_id: 'evt_swap',
      });
      realtime.send({ type: 'response.create' });
      await event('response.done');
      expect(
        connection.events.filter((item) => (item as { type: string }).type === 'session.update'),
      ).toHaveLength(1);
      realtime.close();
      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 2,
        {
          timeoutMs: 5_000,
          what: 'records',
        },
      );
      expect(logs.map((log) => log.model)).toEqual(['voice', 'voice']);
    });
  });

  describe('the meter', () => {
    test('a response the upstream starts itself (server VAD) is charged on its response.done', async () => {
      const before = await balanceOf(userId);
      const { event, upgraded, realtime } = sdkSession(openai, 'gpt-realtime');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      await event('session.created');
      const connection = await upstream.realtime.connection();
      const usage = {
        inputTokens: 500,
        inputAudioTokens: 400,
        cachedTokens: 0,
        cachedAudioTokens: 0,
        outputTokens: 60,
        outputAudioTokens: 50,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      };
      connection.send({
        type: 'response.created',
        response: { id: 'resp_vad', status: 'in_progress', usage: null },
      });
      connection.send({
        type: 'response.done',
        response: { id: 'resp_vad', status: 'completed', output: [], usage: realtimeUsage(usage) },
      });
      await event('response.done');
      realtime.close();
      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 2,
        { timeoutMs: 5_000, what: 'records' },
      );
      const cost = costOf({
        input: 500,
        inputAudio: 400,
        cached: 0,
        cachedAudio: 0,
        output: 60,
        outputAudio: 50,
      });
      expect(nano(logs[1].cost)).toBe(cost);
      expect(before - (await balanceOf(userId))).toBe(cost);
    });

    test('a response.create without room for its pre-charge is not forwarded: insufficient_quota, 1008', async () => {
      // 0.01 USD: a response capped at 100 output tokens fits (100 x 64 / 1e6), one at 8192 does not.
      const poor = await newUser(0.01);
      const client = new OpenAI({ apiKey: poor.key, baseURL: `${gw.origin}/v1` });
      const { realtime, event, errors, errorCount, closed, upgraded } = sdkSession(client, 'gpt-realtime');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      await event('session.created');
      upstream.realtime.script({
        usage: {
          inputTokens: 10,
          inputAudioTokens: 0,
          cachedTokens: 0,
          cachedAudioTokens: 0,
          outputTokens: 20,
          outputAudioTokens: 0,
        },
      });
      realtime.send({ type: 'response.create', response: { max_output_tokens: 100 } });
      await event('response.done');
      realtime.send({ type: 'response.create', event_id: 'evt_second' });
      await errorCount(1);
      expect(errors[0]?.error).toEqual({
        type: 'invalid_request_error',
        code: 'insufficient_quota',
        message: `预扣费额度失败, 用户剩余额度: $0.009640, 需要预扣费额度: $0.524328 (request id: ${requestId})`,
        param: null,
        event_id: 'evt_second',
      });
      expect(await closed).toEqual({ code: 1008, reason: 'insufficient_quota' });
      const connection = await upstream.realtime.connection();
      await connection.closed;
      expect(
        connection.events.filter((item) => (item as { type: string }).type === 'response.create'),
      ).toHaveLength(1);
      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 2,
        { timeoutMs: 5_000, what: 'records' },
      );
      expect(logs[0].error).toMatch(/^insufficient_quota: 预扣费额度失败/);
      expect(nano(logs[1].cost)).toBe(Math.round((10 * nano(4) + 20 * nano(16)) / 1e6));
      expect(await balanceOf(poor.userId)).toBe(nano(0.01) - nano(logs[1].cost));
    });

    test.each([
      ['the balance', {}, /^用户额度不足, 剩余额度: \$-/],
      [
        'a capped key quota',
        { unlimited_quota: false, quota: 0.6 },
        /^token quota is not enough, token remain quota: \$-/,
      ],
      [
        'a budget window',
        { budgets: [{ period: 'day', usd: 0.7 }] },
        /^key budget exceeded: day limit \$0\.700000 reached, resets at /,
      ],
    ])(
      'a charge that leaves %s without room: the response arrives, then insufficient_quota and 1008',
      async (_, keyFields, message) => {
        const spender = await newUser(
          keyFields === undefined || Object.keys(keyFields).length === 0 ? 0.6 : 5,
          keyFields,
        );
        const client = new OpenAI({ apiKey: spender.key, baseURL: `${gw.origin}/v1` });
        const { realtime, event, errors, errorCount, closed, upgraded } = sdkSession(client, 'gpt-realtime');
        const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
        await event('session.created');
        upstream.realtime.script({
          usage: {
            inputTokens: 100,
            inputAudioTokens: 0,
            cachedTokens: 0,
            cachedAudioTokens: 0,
            outputTokens: 20_000,
            outputAudioTokens: 20_000,
          },
        });
        realtime.send({ type: 'response.create' });
        await event('response.done');
        await errorCount(1);
        expect(errors[0]?.error?.code).toBe('insufficient_quota');
        expect(errors[0]?.error?.message).toMatch(message);
        expect(await closed).toEqual({ code: 1008, reason: 'insufficient_quota' });
        await (
          await upstream.realtime.connection()
        ).closed;
        const logs = await waitFor(
          () => logsOf(requestId),
          (found) => found.length === 2,
          { timeoutMs: 5_000, what: 'records' },
        );
        const cost = Math.round((100 * nano(4) + 20_000 * nano(64)) / 1e6);
        expect(nano(logs[1].cost)).toBe(cost);
      },
    );

    test('max_concurrency counts an open session from its upgrade until it closes', async () => {
      const capped = await newUser(10, { max_concurrency: 1 });
      const client = new OpenAI({ apiKey: capped.key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
      const first = sdkSession(client, 'gpt-realtime');
      await first.event('session.created');
      const refused = await refusedUpgrade(
        `${gw.origin.replace('http:', 'ws:')}/v1/realtime?model=gpt-realtime`,
        {
          headers: { authorization: `Bearer ${capped.key}` },
        },
      );
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.error).toMatchObject({ code: 'concurrency_limit_exceeded' });
      expect(refused.body.error.message).toMatch(/^too many concurrent requests \(limit 1\) \(request id: /);
      // An HTTP request of the key counts against the same cap.
      const chat = await fetch(`${gw.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${capped.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(chat.status).toBe(429);
      // Responses of the session do not take another slot.
      first.realtime.send({ type: 'response.create' });
      await first.event('response.done');
      const firstId = (await first.upgraded).headers['x-gateway-request-id'] as string;
      first.realtime.close();
      await first.closed;
      // The session's record is written with the release of its slot.
      await waitFor(
        () => logsOf(firstId),
        (found) => found.length === 2,
        { timeoutMs: 5_000, what: 'records' },
      );
      const second = sdkSession(client, 'gpt-realtime');
      await second.event('session.created');
      second.realtime.close();
      await second.closed;
    });

    test('a client that leaves mid-response: the response is cancelled and charged once on its usage', async () => {
      const leaver = await newUser(10);
      const client = new OpenAI({ apiKey: leaver.key, baseURL: `${gw.origin}/v1` });
      const { realtime, event, upgraded } = sdkSession(client, 'gpt-realtime');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      await event('session.created');
      upstream.realtime.script({
        hold: true,
        usage: {
          inputTokens: 300,
          inputAudioTokens: 0,
          cachedTokens: 0,
          cachedAudioTokens: 0,
          outputTokens: 40,
          outputAudioTokens: 0,
        },
      });
      realtime.send({ type: 'response.create' });
      await event('response.output_item.done');
      const connection = await upstream.realtime.connection();
      // Gone without a close frame.
      realtime.socket.terminate();
      expect(await connection.received('response.cancel')).toMatchObject({ type: 'response.cancel' });
      expect((await connection.closed).code).toBe(1011);
      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 2,
        { timeoutMs: 5_000, what: 'records' },
      );
      const cost = Math.round((300 * nano(4) + 40 * nano(16)) / 1e6);
      expect(logs[1]).toMatchObject({ status_code: 200, prompt_tokens: 300, completion_tokens: 40 });
      expect(nano(logs[1].cost)).toBe(cost);
      expect(logs[0].error).toBe('the client closed the session with 1006');
      expect(await balanceOf(leaver.userId)).toBe(nano(10) - cost);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await logsOf(requestId)).toHaveLength(2);
    });

    test("the upstream's close code reaches the client; a response it cut is released, not charged", async () => {
      const cut = await newUser(10);
      const client = new OpenAI({ apiKey: cut.key, baseURL: `${gw.origin}/v1` });
      const { realtime, event, closed, upgraded } = sdkSession(client, 'gpt-realtime');
      const requestId = (await upgraded).headers['x-gateway-request-id'] as string;
      await event('session.created');
      upstream.realtime.script({ hold: true });
      realtime.send({ type: 'response.create' });
      await event('response.output_item.done');
      (await upstream.realtime.connection()).close(4000, 'invalid_request_error.session_expired');
      expect(await closed).toEqual({ code: 4000, reason: 'invalid_request_error.session_expired' });
      const logs = await waitFor(
        () => logsOf(requestId),
        (found) => found.length === 2,
        { timeoutMs: 5_000, what: 'records' },
      );
      expect(logs[1]).toMatchObject({
        status_code: 502,
        cost: 0,
        error: 'the session closed before the response was done',
      });
      expect(logs[0].error).toBe(
        'the upstream closed the session with 4000 (invalid_request_error.session_expired)',
      );
      expect(await balanceOf(cut.userId)).toBe(nano(10));
    });
  });
});
