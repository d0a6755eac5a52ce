import { expect, test } from 'vitest';
import { Cancellation } from '../../src/relay/cancellation.js';
import { RelayTracker } from '../../src/relay/relay-tracker.js';

/** A promise and the functions that end it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Whether `promise` has resolved once the queued callbacks have run. */
async function hasResolved(promise: Promise<unknown>): Promise<boolean> {
  let resolved = false;
  void promise.then(() => (resolved = true));
  await new Promise((resolve) => setImmediate(resolve));
  return resolved;
}

test('settled waits for every tracked write, failed ones and those tracked while it waits included', async () => {
  const tracker = new RelayTracker();
  await expect(hasResolved(tracker.settled())).resolves.toBe(true);

  const first = deferred();
  const failing = deferred();
  expect(tracker.track(first.promise)).toBe(first.promise);
  void tracker.track(failing.promise).catch(() => undefined);
  expect(tracker.pendingCount).toBe(2);

  const settled = tracker.settled();
  first.resolve();
  await expect(hasResolved(settled)).resolves.toBe(false);
  expect(tracker.pendingCount).toBe(1);

  const late = deferred();
  void tracker.track(late.promise);
  failing.reject(new Error('the database went away'));
  await expect(hasResolved(settled)).resolves.toBe(false);
  expect(tracker.pendingCount).toBe(1);

  late.resolve();
  await expect(hasResolved(settled)).resolves.toBe(true);
  expect(tracker.pendingCount).toBe(0);
});

test('a tracked write that fails still reaches its own caller as a failure', async () => {
  const tracker = new RelayTracker();
  const failure = new Error('disk full');
  await expect(tracker.track(Promise.reject(failure))).rejects.toBe(failure);
  expect(tracker.pendingCount).toBe(0);
});

test('abortAll ends the requests still registered, and an ended registration is left alone', () => {
  const tracker = new RelayTracker();
  const running = new Cancellation();
  const done = new Cancellation();
  tracker.begin(running);
  const end = tracker.begin(done);
  end();
  expect(tracker.activeCount).toBe(1);
  tracker.abortAll('shutting down');
  expect([running.aborted, (running.reason as Error).message, done.aborted]).toEqual([
    true,
    'shutting down',
    false,
  ]);
});
