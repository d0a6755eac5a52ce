import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { gatewayVariants } from '../helpers/console-gateways.js';
import type { TestGateway } from '../helpers/start-test-gateway.js';
import { BASE, DAY, seedUsage, type UsageFixture } from '../helpers/usage-fixture.js';

describe.each(gatewayVariants())('usage log filters and totals on $name', (variant) => {
  let gw: TestGateway;
  let fixture: UsageFixture;

  beforeAll(async () => {
    gw = await variant.start();
    fixture = await seedUsage(gw);
  });

  afterAll(async () => {
    await gw?.close();
  });

  describe('log filters and totals', () => {
    const ids = (body: { data: { request_id: string }[] }) => body.data.map((record) => record.request_id);
    const requestIdsOf = (matching: (log: NewUsageLog) => boolean) =>
      fixture.logs
        .filter(matching)
        .map((log) => log.requestId)
        .reverse();

    it.each([
      [
        'channel_id',
        (l: NewUsageLog, c: UsageFixture['channels']) => l.channelId === c.first,
        (c: UsageFixture['channels']) => `channel_id=${c.first}`,
      ],
      ['status=ok', (l: NewUsageLog) => l.statusCode === 200, () => 'status=ok'],
      ['status=error', (l: NewUsageLog) => l.statusCode !== 200, () => 'status=error'],
      ['status=502', (l: NewUsageLog) => l.statusCode === 502, () => 'status=502'],
      ['status=0', (l: NewUsageLog) => l.statusCode === 0, () => 'status=0'],
      [
        'from and to',
        (l: NewUsageLog) => l.createdAt >= BASE + 10 && l.createdAt <= BASE + 3600,
        () => `from=${BASE + 10}&to=${BASE + 3600}`,
      ],
      ['from alone', (l: NewUsageLog) => l.createdAt >= BASE + DAY, () => `from=${BASE + DAY}`],
    ])('filters by %s', async (_label, matching, query) => {
      const filter = query(fixture.channels);
      const bounded = filter.includes('to=') ? filter : `${filter}&to=${BASE + 2 * DAY}`;
      const response = await gw.admin('GET', `/logs?${bounded}`);
      expect(response.status).toBe(200);
      const expected = requestIdsOf((log) => matching(log, fixture.channels));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(response.body)).toEqual(expected);
    });

    it('totals every matching record, not only the page', async () => {
      const response = await gw.admin(
        'GET',
        `/logs?user_id=${fixture.alice.id}&to=${BASE + 2 * DAY}&limit=1`,
      );
      const mine = fixture.logs.filter((log) => log.userId === fixture.alice.id);
      expect(response.body.data).toHaveLength(1);
      expect(response.body.total).toEqual({
        requests: mine.length,
        prompt_tokens: mine.reduce((sum, log) => sum + log.promptTokens, 0),
        completion_tokens: mine.reduce((sum, log) => sum + log.completionTokens, 0),
        cost: 6.123456791,
      });
      const none = await gw.admin('GET', '/logs?model=no-such-model');
      expect(none.body).toEqual({
        data: [],
        total: { requests: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 },
      });
    });

    it.each([
      ['status=fine', 'status'],
      ['status=600', 'status'],
      ['channel_id=-1', 'channel_id'],
      ['from=5&to=4', 'from'],
    ])('rejects %s', async (query, field) => {
      const response = await gw.admin('GET', `/logs?${query}`);
      expect(response).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', param: field } },
      });
    });

    it('lists only the caller’s own records on /api/me/logs, with their totals', async () => {
      const response = await fixture.aliceClient.call<{
        data: { request_id: string; user_id: number }[];
        total: unknown;
      }>('GET', `/me/logs?user_id=${fixture.bob.id}&to=${BASE + 2 * DAY}&status=ok`);
      expect(response.status).toBe(200);
      const expected = fixture.logs.filter(
        (log) => log.userId === fixture.alice.id && log.statusCode === 200,
      );
      expect(ids(response.body)).toEqual(expected.map((log) => log.requestId).reverse());
      expect(response.body.total).toMatchObject({ requests: expected.length, cost: 6.123456791 });
    });
  });
});
