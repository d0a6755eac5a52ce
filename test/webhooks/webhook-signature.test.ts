import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifyWebhookSignature } from '../helpers/verify-webhook-signature.js';
import {
  gatewayVariants,
  startWebhookFixture,
  WEBHOOK_SECRET,
  type WebhookFixture,
} from './webhook-fixture.js';

/**
 * Admin-api section 10.1: each event is a POST of `{"id","type","created_at","data"}` signed with
 * `X-Gateway-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. The receiver checks it
 * the way an operator would, with node:crypto only. On PostgreSQL the budget events' bodies are
 * written by the database's money moves, so both stores are covered.
 */
describe.each(gatewayVariants())('event signatures on $name', ({ gateway }) => {
  let hooks: WebhookFixture;

  beforeAll(async () => {
    hooks = await startWebhookFixture(gateway);
  });
  afterAll(async () => {
    await hooks?.close();
  });

  /** A key whose first request crosses its budget's only alert: one `budget.threshold` event. */
  async function oneThresholdEvent() {
    const customer = await hooks.customer({
      key: { budgets: [{ period: 'day', requests: 2, alert_at: [0.5] }] },
    });
    const before = hooks.receiver.received.filter((each) => each.body?.type === 'budget.threshold').length;
    await hooks.ask(customer);
    return (await hooks.receivedOf('budget.threshold', before + 1)).at(-1)!;
  }

  test('a delivered event carries a signature over its raw body that an independent check accepts', async () => {
    const sentAfter = Math.floor(Date.now() / 1000);
    const received = await oneThresholdEvent();

    const verified = verifyWebhookSignature(received, WEBHOOK_SECRET);
    expect(verified).toMatchObject({ ok: true });
    if (!verified.ok) return;
    expect(verified.timestamp).toBeGreaterThanOrEqual(sentAfter);
    expect(verified.timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(received.headers['content-type']).toMatch(/^application\/json/);

    expect(Object.keys(received.body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(received.body).toMatchObject({
      id: expect.stringMatching(/\S/),
      type: 'budget.threshold',
      created_at: expect.any(Number),
      data: expect.any(Object),
    });
    expect(received.body.created_at).toBeGreaterThanOrEqual(sentAfter - 1);
    const listed = await hooks.deliveries();
    expect(listed.map((delivery) => delivery.id)).toContain(received.body.id);

    // The check is not a rubber stamp: another secret, or one byte changed, is refused.
    expect(verifyWebhookSignature(received, `${WEBHOOK_SECRET}x`)).toMatchObject({ ok: false });
    const tampered = {
      ...received,
      rawBody: received.rawBody.replace('"budget.threshold"', '"budget.thresholt"'),
    };
    expect(tampered.rawBody).not.toBe(received.rawBody);
    expect(verifyWebhookSignature(tampered, WEBHOOK_SECRET)).toMatchObject({ ok: false });
  });

  test('without a webhook_secret, events are sent without a signature header', async () => {
    expect((await hooks.fx.gw.admin('PATCH', '/settings', { webhook_secret: null })).status).toBe(200);
    try {
      const received = await oneThresholdEvent();
      expect(received.headers['x-gateway-signature']).toBeUndefined();
      expect(received.body.type).toBe('budget.threshold');
    } finally {
      await hooks.fx.gw.admin('PATCH', '/settings', { webhook_secret: WEBHOOK_SECRET });
    }
  });
});
