import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { defaultSettings } from '../../src/config/settings-schema.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Store } from '../../src/store/database.js';
import { WebhookEventsRepository } from '../../src/store/webhook-events-repository.js';
import { WebhookDeliverer } from '../../src/events/webhooks/webhook-deliverer.js';
import { webhookEvent } from '../../src/events/webhooks/webhook-event.js';
import { storeVariants } from '../helpers/test-stores.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Delivery is at least once (admin-api section 10.1): a non-2xx answer or none is retried with
 * growing waits for at least 24 hours. The deliverer and its repository on each store, with the
 * clock (`Date` only: sockets and timers stay real) moved by hand, so a day of retries takes
 * milliseconds.
 */
const T0 = 1_750_000_000_000;
const SECOND = 1_000;
const HOUR = 3_600 * SECOND;

describe.each(storeVariants())('webhook retries on $name', (variant) => {
  let store: Store;
  let events: WebhookEventsRepository;
  let receiver: WebhookReceiver;
  let deliverer: WebhookDeliverer;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    store = await variant.open();
    events = new WebhookEventsRepository(store.db);
    deliverer = newDeliverer();
    receiver.received.length = 0;
    receiver.setMode({ kind: 'answer', status: 200 });
    await receiver.start();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await store.close();
  });

  function newDeliverer() {
    return new WebhookDeliverer({
      events,
      settings: () => ({ ...defaultSettings, webhook_url: receiver.url, webhook_secret: 'retry-secret' }),
      logger: createLogger('silent'),
    });
  }

  async function storedEvent() {
    const event = webhookEvent(
      'balance.low',
      { user_id: 1, balance: 0.5, threshold: 1 },
      { nowS: T0 / SECOND },
    );
    expect(await events.add(event)).toBe(true);
    return event;
  }

  /** The event as the delivery list shows it, with when its next attempt is due. */
  async function row(id: string) {
    const listed = (await events.recent({ limit: 100, offset: 0 })).find((event) => event.id === id);
    const due = await store.db
      .selectFrom('webhook_events')
      .select('next_attempt_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(listed).toBeDefined();
    return { ...listed!, nextAttemptAt: Number(due.next_attempt_at) };
  }

  async function roundAt(ms: number) {
    vi.setSystemTime(ms);
    await deliverer.round();
  }

  test('a 500 is retried 10 s later, then 20 s after that; a 2xx ends it as delivered', async () => {
    const event = await storedEvent();
    receiver.setMode({ kind: 'answer', status: 500 });
    await roundAt(T0);
    expect(receiver.ids()).toEqual([event.id]);
    expect(await row(event.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      nextAttemptAt: T0 + 10 * SECOND,
    });

    await roundAt(T0 + 10 * SECOND - 1);
    expect(receiver.received).toHaveLength(1);
    await roundAt(T0 + 10 * SECOND);
    expect(receiver.received).toHaveLength(2);
    expect(await row(event.id)).toMatchObject({ attempts: 2, nextAttemptAt: T0 + 30 * SECOND });

    receiver.setMode({ kind: 'answer', status: 204 });
    await roundAt(T0 + 30 * SECOND);
    expect(await row(event.id)).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 204 });
    await roundAt(T0 + 48 * HOUR);
    expect(receiver.ids()).toEqual([event.id, event.id, event.id]);
  });

  test('a closed port is an attempt without a status code; the event goes out once the receiver is back', async () => {
    const event = await storedEvent();
    await receiver.stop();
    await roundAt(T0);
    expect(await row(event.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: null,
      nextAttemptAt: T0 + 10 * SECOND,
    });
    await receiver.start();
    await roundAt(T0 + 10 * SECOND);
    expect(await row(event.id)).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200 });
    expect(receiver.ids()).toEqual([event.id]);
  });

  test('retries go on for at least 24 hours, waits doubling from 10 s to at most an hour, then it is failed', async () => {
    const event = await storedEvent();
    receiver.setMode({ kind: 'answer', status: 503 });
    const waits: number[] = [];
    let now = T0;
    let current = await row(event.id);
    for (let attempt = 0; current.status === 'pending' && attempt < 100; attempt += 1) {
      await roundAt(now);
      current = await row(event.id);
      if (current.status === 'pending') {
        waits.push((current.nextAttemptAt - now) / SECOND);
        now = current.nextAttemptAt;
      }
    }
    expect(current).toMatchObject({ status: 'failed', lastStatusCode: 503 });
    expect(waits.slice(0, 11)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]);
    expect(waits.slice(11).every((wait) => wait === 3600)).toBe(true);
    // The last attempt, the one that gave up, came a day or more after the event.
    expect(now - T0).toBeGreaterThanOrEqual(24 * HOUR);
    expect(now - T0).toBeLessThanOrEqual(26 * HOUR);
    expect(current.attempts).toBe(waits.length + 1);
    expect(receiver.received).toHaveLength(current.attempts);

    await roundAt(now + 48 * HOUR);
    expect(receiver.received).toHaveLength(current.attempts);
  });

  test('an attempt claims its event: deliverers racing send it once; a claim left by a dead one lapses', async () => {
    const first = await storedEvent();
    const rival = newDeliverer();
    await Promise.all([deliverer.round(), rival.round(), deliverer.round(), rival.round()]);
    expect(receiver.ids()).toEqual([first.id]);

    // A deliverer that claimed the next event and died before it recorded anything.
    const second = await storedEvent();
    expect(await events.claim(second.id, T0, T0 + 30 * SECOND)).toMatchObject({ id: second.id, attempts: 1 });
    await roundAt(T0 + 30 * SECOND - 1);
    expect(receiver.ids()).toEqual([first.id]);
    await roundAt(T0 + 30 * SECOND);
    expect(receiver.ids()).toEqual([first.id, second.id]);
    expect(await row(second.id)).toMatchObject({ status: 'delivered', attempts: 2 });
  });
});
