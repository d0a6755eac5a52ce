import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/cluster-gateway.js';
import { gatewayVariants, startWebhookFixture, type WebhookFixture } from './webhook-fixture.js';

/**
 * `GET /api/webhook-deliveries` (admin-api section 10.1) while a receiver is down: the event stays
 * `pending` with its attempts and last status code growing, and is delivered once the receiver
 * answers. The retry waits (10 s, then doubling) are skipped by making the event due, as if they
 * had passed; `webhook-retries.test.ts` checks the waits themselves.
 */
describe.each(gatewayVariants())('webhook deliveries on $name', ({ gateway }) => {
  let hooks: WebhookFixture;

  beforeAll(async () => {
    hooks = await startWebhookFixture(gateway);
  });
  afterAll(async () => {
    await hooks?.close();
  });

  /** Runs delivery rounds until the only listed delivery has made `attempts` attempts; it. */
  async function listedAfter(attempts: number) {
    return waitFor(
      async () => {
        await hooks.fx.gw.gateway.services.webhooks.round();
        return hooks.deliveries();
      },
      (listed) => listed.length === 1 && listed[0].attempts >= attempts,
      { timeoutMs: 5_000, what: `a delivery with ${attempts} attempts` },
    ).then((listed) => listed[0]);
  }

  test('an event the receiver is down for stays pending, attempts growing, and is delivered when it is back', async () => {
    const customer = await hooks.customer({
      key: { budgets: [{ period: 'day', requests: 1, alert_at: [1] }] },
    });
    await hooks.receiver.stop();
    const sentAfter = Math.floor(Date.now() / 1000);
    await hooks.ask(customer);

    const refused = await listedAfter(1);
    expect(refused).toEqual({
      id: expect.any(String),
      type: 'budget.threshold',
      created_at: expect.any(Number),
      attempts: 1,
      status: 'pending',
      last_status_code: null,
    });
    expect(refused.created_at).toBeGreaterThanOrEqual(sentAfter);
    expect(refused.created_at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

    await hooks.receiver.start();
    hooks.receiver.setMode({ kind: 'answer', status: 500 });
    await hooks.makePendingDue();
    expect(await listedAfter(2)).toMatchObject({
      id: refused.id,
      attempts: 2,
      status: 'pending',
      last_status_code: 500,
    });

    hooks.receiver.setMode({ kind: 'answer', status: 200 });
    await hooks.makePendingDue();
    expect(await listedAfter(3)).toEqual({
      ...refused,
      attempts: 3,
      status: 'delivered',
      last_status_code: 200,
    });
    // At least once: the receiver saw the one id twice (the 500 and the 200) and dedupes by it.
    expect(hooks.receiver.ids()).toEqual([refused.id, refused.id]);
  });
});
