import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sleep } from '../routing/health-fixture.js';
import { gatewayVariants, startWebhookFixture, type WebhookFixture } from './webhook-fixture.js';

/**
 * `balance.low` (admin-api section 10.1): a user's balance falling below their `low_balance_alert`
 * through settled requests sends one event, and no other until the balance has risen to the
 * threshold again (by a top-up, or a balance set through PATCH); the next fall then sends one more.
 */
const START_BALANCE = 1;
const nano = (usd: number) => Math.round(usd * 1e9);

describe.each(gatewayVariants())('balance.low on $name', ({ gateway }) => {
  let hooks: WebhookFixture;
  /** What one request costs, in nano-USD, learned from a first request. */
  let costNano: number;

  beforeAll(async () => {
    hooks = await startWebhookFixture(gateway);
    await hooks.fx.openai.chat.completions.create({
      model: 'gpt-4o',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    costNano = nano((await hooks.fx.logs())[0].cost);
    expect(costNano).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await hooks?.close();
  });

  const lowEvents = () => hooks.receiver.received.filter((each) => each.body.type === 'balance.low');

  /** No event more than `count` after delivery rounds have had their chance. */
  async function expectStill(count: number) {
    await sleep(150);
    await hooks.fx.gw.gateway.services.webhooks.round();
    expect(lowEvents()).toHaveLength(count);
  }

  test('one event per fall below the threshold, sent again only after the balance rose above it', async () => {
    // One request leaves the balance above the threshold; the second takes it below.
    const thresholdNano = nano(START_BALANCE) - Math.round(1.5 * costNano);
    const customer = await hooks.customer({
      user: { balance: START_BALANCE, low_balance_alert: thresholdNano / 1e9 },
    });
    const balanceNano = async () =>
      nano((await hooks.fx.gw.admin('GET', `/users/${customer.userId}`)).body.balance);
    const expectEvent = async (index: number) => {
      const event = (await hooks.receivedOf('balance.low', index + 1))[index]!.body;
      expect(Object.keys(event.data).sort()).toEqual(['balance', 'threshold', 'user_id']);
      expect(event.data.user_id).toBe(customer.userId);
      expect(nano(event.data.threshold)).toBe(thresholdNano);
      expect(nano(event.data.balance)).toBe(await balanceNano());
      expect(nano(event.data.balance)).toBeLessThan(thresholdNano);
    };

    await hooks.ask(customer);
    await expectStill(0);
    await hooks.ask(customer);
    await expectEvent(0);
    await hooks.ask(customer);
    await expectStill(1);

    // A top-up above the threshold re-arms it (and is no event itself); the next fall sends again.
    const topUp = await hooks.fx.gw.admin('POST', `/users/${customer.userId}/topup`, {
      amount: (3 * costNano) / 1e9,
    });
    expect(topUp.status).toBe(200);
    expect(nano(topUp.body.balance)).toBeGreaterThanOrEqual(thresholdNano);
    await hooks.ask(customer);
    await expectStill(1);
    await hooks.ask(customer);
    await expectEvent(1);

    // A top-up that leaves the balance below the threshold does not re-arm it.
    await hooks.fx.gw.admin('POST', `/users/${customer.userId}/topup`, { amount: 0.000000001 });
    await hooks.ask(customer);
    await expectStill(2);

    // Nor does a balance set through PATCH that stays below; one set above does.
    await hooks.fx.gw.admin('PATCH', `/users/${customer.userId}`, { balance: (thresholdNano - 1) / 1e9 });
    await hooks.ask(customer);
    await expectStill(2);
    await hooks.fx.gw.admin('PATCH', `/users/${customer.userId}`, { balance: START_BALANCE });
    await hooks.ask(customer);
    await expectStill(2);
    await hooks.ask(customer);
    await expectEvent(2);

    const ids = lowEvents().map((each) => each.body.id);
    expect(new Set(ids).size).toBe(3);
    const listed = await hooks.deliveries();
    expect(
      listed
        .filter((delivery) => delivery.type === 'balance.low')
        .map((delivery) => delivery.id)
        .sort(),
    ).toEqual([...ids].sort());
  });

  test('a user without low_balance_alert gets no event however low the balance goes', async () => {
    const before = lowEvents().length;
    const customer = await hooks.customer({ user: { balance: (costNano * 1.5) / 1e9 } });
    await hooks.ask(customer);
    await expectStill(before);
  });
});
