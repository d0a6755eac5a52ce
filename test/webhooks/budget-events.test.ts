import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sleep } from '../routing/health-fixture.js';
import { gatewayVariants, startWebhookFixture, type WebhookFixture } from './webhook-fixture.js';

/**
 * `budget.threshold` and `budget.exceeded` (admin-api section 10.1) through real requests: settled
 * usage crossing an `alert_at` fraction sends one event per window, dimension and fraction, with
 * the members of the spec's table; the first request a window refuses sends `budget.exceeded` with
 * threshold 1, and the next refusal sends nothing more.
 */
const DAY_S = 86_400;
const nano = (usd: number) => Math.round(usd * 1e9);

function currentWindows(nowMs: number) {
  const dayStart = Math.floor(nowMs / 1000 / DAY_S) * DAY_S;
  const weekday = (new Date(nowMs).getUTCDay() + 6) % 7; // Monday 0
  const weekStart = dayStart - weekday * DAY_S;
  return {
    day: { window_start: dayStart, resets_at: dayStart + DAY_S },
    week: { window_start: weekStart, resets_at: weekStart + 7 * DAY_S },
  };
}

describe.each(gatewayVariants())('budget events on $name', ({ gateway }) => {
  let hooks: WebhookFixture;
  /** What one request costs (nano-USD) and how many tokens it bills, learned from a first request. */
  let costNano: number;
  let tokens: number;

  beforeAll(async () => {
    hooks = await startWebhookFixture(gateway);
    await hooks.fx.openai.chat.completions.create({
      model: 'gpt-4o',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const [log] = await hooks.fx.logs();
    costNano = nano(log.cost);
    tokens = log.prompt_tokens + log.completion_tokens;
    expect(costNano).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await hooks?.close();
  });

  test('each fraction of each dimension of each window sends one budget.threshold; the first refusal one budget.exceeded', async () => {
    const customer = await hooks.customer({
      key: { budgets: [{ period: 'day', requests: 4, tokens: 8 * tokens, alert_at: [0.25, 0.5] }] },
      user: { budgets: [{ period: 'week', requests: 10, usd: (10 * costNano) / 1e9, alert_at: [0.2] }] },
    });
    const windows = currentWindows(Date.now());
    for (let request = 0; request < 4; request += 1) await hooks.ask(customer);

    const thresholds = (await hooks.receivedOf('budget.threshold', 6)).map((each) => each.body);
    const keyDay = { scope: 'key', id: customer.keyId, period: 'day', ...windows.day };
    const userWeek = { scope: 'user', id: customer.userId, period: 'week', ...windows.week };
    const expected = [
      { ...keyDay, dimension: 'requests', threshold: 0.25, used: 1, limit: 4 },
      { ...keyDay, dimension: 'requests', threshold: 0.5, used: 2, limit: 4 },
      { ...keyDay, dimension: 'tokens', threshold: 0.25, used: 2 * tokens, limit: 8 * tokens },
      { ...keyDay, dimension: 'tokens', threshold: 0.5, used: 4 * tokens, limit: 8 * tokens },
      { ...userWeek, dimension: 'requests', threshold: 0.2, used: 2, limit: 10 },
      {
        ...userWeek,
        dimension: 'usd',
        threshold: 0.2,
        used: (2 * costNano) / 1e9,
        limit: (10 * costNano) / 1e9,
      },
    ];
    const order = (data: any) => `${data.scope} ${data.dimension} ${data.threshold}`;
    const byOrder = (a: any, b: any) => order(a).localeCompare(order(b));
    const received = thresholds.map((event) => event.data).sort(byOrder);
    // Every member of the spec's table, and no other; USD figures exact to the nano-dollar.
    for (const data of received) {
      expect(Object.keys(data).sort()).toEqual(
        [
          'dimension',
          'id',
          'limit',
          'period',
          'resets_at',
          'scope',
          'threshold',
          'used',
          'window_start',
        ].sort(),
      );
      if (data.dimension === 'usd') {
        data.used = nano(data.used) / 1e9;
        data.limit = nano(data.limit) / 1e9;
      }
    }
    expect(received).toEqual(expected.sort(byOrder));
    for (const event of thresholds) expect(event.created_at).toBeGreaterThanOrEqual(windows.day.window_start);

    // The fifth request does not fit the key's day: refused, and the window's first refusal is an event.
    const refusedAgain = async () => {
      const error = await hooks.ask(customer).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('budget_exceeded');
    };
    await refusedAgain();
    const [exceeded] = await hooks.receivedOf('budget.exceeded', 1);
    expect(exceeded!.body.data).toEqual({
      ...keyDay,
      dimension: 'requests',
      threshold: 1,
      used: 4,
      limit: 4,
    });
    await refusedAgain();

    // Nothing more, however many rounds run: no second exceeded, no threshold sent again.
    await sleep(300);
    await hooks.fx.gw.gateway.services.webhooks.round();
    const types = hooks.receiver.received.map((each) => each.body.type);
    expect(types.filter((type) => type === 'budget.threshold')).toHaveLength(6);
    expect(types.filter((type) => type === 'budget.exceeded')).toHaveLength(1);
    expect(new Set(hooks.receiver.ids()).size).toBe(hooks.receiver.received.length);
    const listed = await hooks.deliveries();
    expect(listed).toHaveLength(7);
    for (const delivery of listed)
      expect(delivery).toEqual({
        id: expect.any(String),
        type: expect.stringMatching(/^budget\.(threshold|exceeded)$/),
        created_at: expect.any(Number),
        attempts: 1,
        status: 'delivered',
        last_status_code: 200,
      });
  });
});
