import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unixNow } from '../../src/store/json-column.js';
import { expectApiError, signedInClient } from '../helpers/console-client.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import { startRelayFixture } from '../helpers/relay-fixture.js';
import type { TestGateway } from '../helpers/start-test-gateway.js';
import {
  BASE,
  DAY,
  expectedSeries,
  HOUR,
  PASSWORD,
  seedUsage,
  WINDOW,
  type StatsRow,
  type UsageFixture,
} from '../helpers/usage-fixture.js';

describe.each(gatewayVariants())('usage statistics on $name', (variant) => {
  let gw: TestGateway;
  let fixture: UsageFixture;

  beforeAll(async () => {
    gw = await variant.start();
    fixture = await seedUsage(gw);
  });

  afterAll(async () => {
    await gw?.close();
  });

  const stats = async (query: string) => gw.admin('GET', `/stats?${query}`);
  const inWindow = () =>
    fixture.logs.filter((log) => log.createdAt >= BASE && log.createdAt <= BASE + 2 * DAY - 1);

  describe('/api/stats', () => {
    it.each([
      ['hour', 'model'],
      ['hour', 'channel'],
      ['hour', 'user'],
      ['hour', 'key'],
      ['day', 'model'],
      ['day', 'channel'],
      ['day', 'user'],
      ['day', 'key'],
    ] as const)('sums records per %s and %s', async (bucket, groupBy) => {
      const response = await stats(`${WINDOW}&bucket=${bucket}&group_by=${groupBy}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: expectedSeries(inWindow(), { bucket, groupBy }),
        from: BASE,
        to: BASE + 2 * DAY - 1,
        bucket,
        group_by: groupBy,
      });
    });

    it('pins the figures of one day per model, money exact to 1e-9', async () => {
      const response = await stats(`${WINDOW}&bucket=day`);
      expect(response.body.data).toEqual([
        {
          t: BASE,
          group: 'claude-sonnet-4',
          requests: 1,
          errors: 1,
          prompt_tokens: 10,
          completion_tokens: 0,
          cost: 0,
          avg_latency_ms: 300,
          avg_first_byte_ms: null,
        },
        {
          t: BASE,
          group: 'gpt-4o',
          requests: 3,
          errors: 1,
          prompt_tokens: 108,
          completion_tokens: 53,
          cost: 1.12345679,
          avg_latency_ms: 117,
          avg_first_byte_ms: 30,
        },
        {
          t: BASE + DAY,
          group: 'claude-sonnet-4',
          requests: 1,
          errors: 0,
          prompt_tokens: 2,
          completion_tokens: 2,
          cost: 0.999999999,
          avg_latency_ms: 30,
          avg_first_byte_ms: null,
        },
        {
          t: BASE + DAY,
          group: 'gpt-4o',
          requests: 2,
          errors: 1,
          prompt_tokens: 1,
          completion_tokens: 1,
          cost: 0.000000001,
          avg_latency_ms: 205,
          avg_first_byte_ms: 60,
        },
      ]);
    });

    it('takes the filters of the logs', async () => {
      const byStatus = await stats(`${WINDOW}&bucket=day&group_by=user&status=error`);
      expect(byStatus.body.data).toEqual(
        expectedSeries(
          inWindow().filter((log) => log.statusCode !== 200),
          { bucket: 'day', groupBy: 'user' },
        ),
      );
      const byChannel = await stats(`${WINDOW}&bucket=day&channel_id=${fixture.channels.second}`);
      expect(byChannel.body.data).toEqual([
        expect.objectContaining({ t: BASE, group: 'gpt-4o', requests: 1 }),
      ]);
    });

    it('covers the last 24 hours by the hour per model by default', async () => {
      const now = unixNow();
      await gw.gateway.services.repositories.usageLogs.insertMany([
        { ...fixture.logs[1]!, requestId: 'recent', createdAt: now - 60 },
        { ...fixture.logs[1]!, requestId: 'two-days-ago', createdAt: now - 2 * DAY },
      ]);
      const response = await gw.admin('GET', '/stats');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ bucket: 'hour', group_by: 'model' });
      expect(response.body.to - response.body.from).toBe(DAY);
      expect(Math.abs(response.body.to - now)).toBeLessThanOrEqual(5);
      expect(response.body.data).toEqual([
        expect.objectContaining({ t: now - 60 - ((now - 60) % HOUR), group: 'gpt-4o', requests: 1 }),
      ]);
    });

    it.each([
      ['bucket=week', 'bucket'],
      ['group_by=team', 'group_by'],
      ['from=yesterday', 'from'],
      ['to=-5', 'to'],
      [`from=${BASE + 10}&to=${BASE}`, 'from'],
      [`from=0&to=${BASE}&bucket=hour`, 'from'],
      ['status=maybe', 'status'],
      ['channel_id=x', 'channel_id'],
      ['user_id=1&user_id=2', 'user_id'],
    ])('rejects %s naming the field', async (query, field) => {
      expectApiError(
        { ...(await stats(query)), headers: new Headers(), cookies: [] },
        400,
        'invalid_request',
        field,
      );
    });
  });

  describe('/api/me/stats', () => {
    it('sums only the caller’s own records, whatever user_id says', async () => {
      for (const query of [
        `${WINDOW}&bucket=hour&group_by=key`,
        `${WINDOW}&bucket=hour&group_by=key&user_id=${fixture.bob.id}`,
      ]) {
        const response = await fixture.aliceClient.call('GET', `/me/stats?${query}`);
        expect(response.status).toBe(200);
        expect((response.body as { data: StatsRow[] }).data).toEqual(
          expectedSeries(
            inWindow().filter((log) => log.userId === fixture.alice.id),
            { bucket: 'hour', groupBy: 'key' },
          ),
        );
      }
      const grouped = await fixture.aliceClient.call<{ data: StatsRow[] }>(
        'GET',
        `/me/stats?${WINDOW}&bucket=day&group_by=user`,
      );
      expect(grouped.body.data.map((row) => row.group)).toEqual([fixture.alice.id, fixture.alice.id]);
    });
  });

  describe('/api/channels/{id}/stats', () => {
    it('answers success rate and latency over the window, in all and per model', async () => {
      const response = await gw.admin('GET', `/channels/${fixture.channels.first}/stats?${WINDOW}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        channel_id: fixture.channels.first,
        from: BASE,
        to: BASE + 2 * DAY - 1,
        requests: 5,
        errors: 2,
        success_rate: 0.6,
        // 100, 300, 50, 400, 30
        avg_latency_ms: 176,
        p50_latency_ms: 100,
        avg_first_byte_ms: 40,
        models: [
          {
            model: 'gpt-4o',
            requests: 3,
            errors: 1,
            success_rate: 2 / 3,
            avg_latency_ms: 183,
            p50_latency_ms: 100,
            avg_first_byte_ms: 40,
          },
          {
            model: 'claude-sonnet-4',
            requests: 2,
            errors: 1,
            success_rate: 0.5,
            avg_latency_ms: 165,
            p50_latency_ms: 30,
            avg_first_byte_ms: null,
          },
        ],
      });
    });

    it('answers zeros and nulls for a window without records, and defaults to the last 24 hours', async () => {
      const response = await gw.admin('GET', `/channels/${fixture.channels.second}/stats`);
      expect(response.body).toMatchObject({
        requests: 0,
        errors: 0,
        success_rate: null,
        avg_latency_ms: null,
        p50_latency_ms: null,
        avg_first_byte_ms: null,
        models: [],
      });
      expect(response.body.to - response.body.from).toBe(DAY);
    });

    it('answers 404 for an unknown channel and 400 for a bad window', async () => {
      const unknown = await gw.admin('GET', '/channels/999999/stats');
      expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
      const backwards = await gw.admin('GET', `/channels/${fixture.channels.first}/stats?from=10&to=5`);
      expect(backwards).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', param: 'from' } },
      });
    });
  });
});

describe('statistics of relayed requests', () => {
  it('match the usage records the relay wrote, to the nano-dollar', async () => {
    const fx = await startRelayFixture();
    try {
      await fx.gw.admin('PATCH', `/users/${fx.userId}`, { password: PASSWORD });
      const client = await signedInClient(fx.gw, { username: 'alice', password: PASSWORD });
      const ask = (content: string) =>
        fx.openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
      fx.upstream.script(
        { type: 'reply', usage: { inputTokens: 1234, outputTokens: 567, cachedTokens: 200 } },
        { type: 'reply', usage: { inputTokens: 89, outputTokens: 1 } },
        { type: 'error', status: 400, message: 'bad request upstream' },
      );
      await ask('first');
      await ask('second');
      await expect(ask('third')).rejects.toThrow();
      const records: {
        status_code: number;
        prompt_tokens: number;
        completion_tokens: number;
        cost: number;
      }[] = await fx.logs();
      expect(records).toHaveLength(3);
      const nano = (usd: number) => Math.round(usd * 1e9);
      const costNano = records.reduce((sum, record) => sum + nano(record.cost), 0);
      expect(costNano).toBeGreaterThan(0);
      const expected = {
        group: 'gpt-4o',
        requests: 3,
        errors: records.filter((record) => record.status_code !== 200).length,
        prompt_tokens: records.reduce((sum, record) => sum + record.prompt_tokens, 0),
        completion_tokens: records.reduce((sum, record) => sum + record.completion_tokens, 0),
        cost: costNano / 1e9,
      };
      expect(expected.errors).toBe(1);

      const mine = await client.call<{ data: StatsRow[] }>('GET', '/me/stats?bucket=day');
      expect(mine.body.data).toEqual([expect.objectContaining(expected)]);
      const byKey = await fx.gw.admin('GET', '/stats?bucket=day&group_by=key');
      expect(byKey.body.data).toEqual([expect.objectContaining({ ...expected, group: fx.keyId })]);
      const channel = await fx.gw.admin('GET', `/channels/${fx.channelId}/stats`);
      expect(channel.body).toMatchObject({ requests: 3, errors: 1, success_rate: 2 / 3 });
      expect(channel.body.avg_latency_ms).toEqual(expect.any(Number));
      const logs = await client.call<{ total: unknown }>('GET', '/me/logs');
      expect(logs.body.total).toEqual({
        requests: 3,
        prompt_tokens: expected.prompt_tokens,
        completion_tokens: expected.completion_tokens,
        cost: expected.cost,
      });
    } finally {
      await fx.close();
    }
  });
});
