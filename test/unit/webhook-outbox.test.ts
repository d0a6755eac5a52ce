import { expect, test } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import type { WebhookEventsRepository } from '../../src/store/webhook-events-repository.js';
import { webhookEvent } from '../../src/events/webhooks/webhook-event.js';
import { WebhookOutbox } from '../../src/events/webhooks/webhook-outbox.js';

/** A repository whose writes finish when the test says, recording each event it was asked to store. */
function pausedRepository() {
  const writes: { id: string; finish: (error?: Error) => void }[] = [];
  const repository = {
    add: (event: { id: string }) =>
      new Promise<boolean>((resolve, reject) => {
        writes.push({ id: event.id, finish: (error) => (error ? reject(error) : resolve(true)) });
      }),
  } as unknown as WebhookEventsRepository;
  return { repository, writes };
}

const refusal = (window: string) =>
  webhookEvent('budget.exceeded', { window }, { nowS: 1_700_000_000, occurrence: window });
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a flood of refusals of one window is one write', async () => {
  const { repository, writes } = pausedRepository();
  const outbox = new WebhookOutbox(repository, createLogger('silent'));
  for (let i = 0; i < 1_000; i += 1) outbox.add(refusal('key:1|day'));
  expect(writes.map((write) => write.id)).toEqual([refusal('key:1|day').id]);
  writes[0]!.finish();
  await settle();
  outbox.add(refusal('key:1|day'));
  outbox.add(refusal('key:2|day'));
  expect(writes).toHaveLength(2);
});

test('a failed write is tried again by the next occurrence of the event', async () => {
  const { repository, writes } = pausedRepository();
  const outbox = new WebhookOutbox(repository, createLogger('silent'));
  outbox.add(refusal('key:1|day'));
  writes[0]!.finish(new Error('database is gone'));
  await settle();
  outbox.add(refusal('key:1|day'));
  expect(writes.map((write) => write.id)).toEqual([refusal('key:1|day').id, refusal('key:1|day').id]);
});

test('writes in flight are bounded while the database does not answer', async () => {
  const { repository, writes } = pausedRepository();
  const outbox = new WebhookOutbox(repository, createLogger('silent'));
  for (let i = 0; i < 500; i += 1) outbox.add(refusal(`key:${i}|day`));
  expect(writes).toHaveLength(32);
  writes[0]!.finish();
  await settle();
  outbox.add(refusal('key:9999|day'));
  expect(writes).toHaveLength(33);
});
