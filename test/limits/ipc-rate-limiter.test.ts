import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { IpcLink } from '../../src/cluster/ipc-link.js';
import { IpcRateLimiter } from '../../src/limits/ipc-rate-limiter.js';
import { PrimaryHub } from '../../src/cluster/primary-hub.js';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import { createLogger } from '../../src/observability/logger.js';
import { ipcPortPair } from '../helpers/ipc-port-pair.js';
import type { RateLimits } from '../../src/limits/rate-limiter.js';

const links: IpcLink[] = [];
let hub: PrimaryHub | undefined;

afterEach(async () => {
  for (const link of links.splice(0)) link.close();
  await hub?.close();
  hub = undefined;
});

function workerLimiter(id: number, options: { tokenFlushMs?: number; timeoutMs?: number } = {}) {
  const pair = ipcPortPair();
  hub?.attach(id, pair.primary);
  const link = new IpcLink(pair.worker);
  links.push(link);
  const errors: unknown[] = [];
  const limiter = new IpcRateLimiter(link, { ...options, onError: (error) => errors.push(error) });
  return { limiter, errors };
}

test('rpm is counted for the whole machine, whichever worker asks', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter: first } = workerLimiter(1);
  const { limiter: second } = workerLimiter(2);
  const limits = { rpm: 3, tpm: null };
  expect(await first.admit(1, limits)).toEqual({ allowed: true });
  expect(await second.admit(1, limits)).toEqual({ allowed: true });
  expect(await first.admit(1, limits)).toEqual({ allowed: true });
  const refused = await second.admit(1, limits);
  expect(refused).toMatchObject({ allowed: false, limit: 'rpm' });
  expect((await first.admit(1, limits)).allowed).toBe(false);
  // Other keys have their own counters.
  expect(await second.admit(2, limits)).toEqual({ allowed: true });
});

test('tokens recorded by one worker count against the key on another', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter: first } = workerLimiter(1, { tokenFlushMs: 5 });
  const { limiter: second } = workerLimiter(2);
  const limits = { rpm: null, tpm: 1_000 };
  expect(await second.admit(9, limits)).toEqual({ allowed: true });
  await first.recordTokens(9, 600);
  await first.recordTokens(9, 400);
  await delay(30);
  expect(await second.admit(9, limits)).toMatchObject({ allowed: false, limit: 'tpm' });
});

test("a worker's own tokens reach the primary before its next question", async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter } = workerLimiter(1, { tokenFlushMs: 60_000 });
  const limits = { rpm: null, tpm: 500 };
  expect(await limiter.admit(3, limits)).toEqual({ allowed: true });
  await limiter.recordTokens(3, 500);
  expect(await limiter.admit(3, limits)).toMatchObject({ allowed: false, limit: 'tpm' });
});

test('keys without limits ask nothing; without an answer a worker counts on its own', async () => {
  // No primary on the other end: every question times out.
  const { limiter, errors } = workerLimiter(1, { timeoutMs: 50 });
  const started = Date.now();
  expect(await limiter.admit(5, { rpm: null, tpm: null })).toEqual({ allowed: true });
  expect(Date.now() - started).toBeLessThan(20);
  const limits = { rpm: 2, tpm: null };
  expect(await limiter.admit(5, limits)).toEqual({ allowed: true });
  expect(await limiter.admit(5, limits)).toEqual({ allowed: true });
  expect(await limiter.admit(5, limits)).toMatchObject({ allowed: false, limit: 'rpm' });
  expect(errors).toHaveLength(1);
  await limiter.close();
});

test('questions asked in one turn of the event loop travel in one call, answered in order', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const pair = ipcPortPair();
  hub.attach(1, pair.primary);
  const calls: unknown[] = [];
  const link = new IpcLink({
    send(message, onError) {
      if (message.gateway === 'call') calls.push(message.body);
      pair.worker.send(message, onError);
    },
    listen: (listener) => pair.worker.listen(listener),
  });
  links.push(link);
  const limiter = new IpcRateLimiter(link);
  await limiter.recordTokens(4, 10);
  const decisions = await Promise.all(
    Array.from({ length: 10 }, () => limiter.admit(4, { rpm: 6, tpm: null })),
  );
  expect(decisions.map((decision) => decision.allowed)).toEqual([
    ...Array(6).fill(true),
    ...Array(4).fill(false),
  ]);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ tokens: [[4, 10]] });
});

/** A worker's limiter whose calls and notices to the primary are kept, in order. */
function watchedWorkerLimiter(id: number, options: { leaseMs?: number; now?: () => number } = {}) {
  const pair = ipcPortPair();
  hub?.attach(id, pair.primary);
  const sent: { kind: 'call' | 'notice'; op: string; body: unknown }[] = [];
  const link = new IpcLink({
    send(message, onError) {
      if (message.gateway !== 'reply')
        sent.push({ kind: message.gateway, op: message.op, body: message.body });
      pair.worker.send(message, onError);
    },
    listen: (listener) => pair.worker.listen(listener),
  });
  links.push(link);
  const limiter = new IpcRateLimiter(link, options);
  const calls = () => sent.filter((message) => message.kind === 'call');
  const givenBack = () => sent.filter((message) => message.op === 'giveBack').map((message) => message.body);
  return { limiter, calls, givenBack };
}

async function admitUntilRefused(limiter: IpcRateLimiter, keyId: number, limits: RateLimits) {
  let admitted = 0;
  while ((await limiter.admit(keyId, limits)).allowed) admitted += 1;
  return admitted;
}

test('a key limited by rpm alone is asked for in leases: the requests a lease counted ahead ask nothing', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter, calls } = watchedWorkerLimiter(1);
  const limits = { rpm: 1_000_000, tpm: null };
  for (let request = 0; request < 50; request += 1)
    expect(await limiter.admit(7, limits)).toEqual({ allowed: true });
  expect(calls()).toHaveLength(1);
  expect(calls()[0]!.body).toMatchObject({ requests: [], leases: [{ keyId: 7, rpm: 1_000_000, wanted: 1 }] });
});

test('a key with a tpm limit is asked for every time', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter, calls } = watchedWorkerLimiter(1);
  const limits = { rpm: 1_000_000, tpm: 1_000_000 };
  for (let request = 0; request < 3; request += 1)
    expect(await limiter.admit(7, limits)).toEqual({ allowed: true });
  expect(calls()).toHaveLength(3);
  expect(calls()[2]!.body).toMatchObject({ requests: [{ keyId: 7 }], leases: [] });
});

test('leases never admit more than the limit, and what one worker leaves unused goes back to the others', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const first = watchedWorkerLimiter(1, { leaseMs: 80 });
  const second = watchedWorkerLimiter(2, { leaseMs: 80 });
  const limits = { rpm: 40, tpm: null };
  // Two workers: a lease holds what is waiting or, when more, a quarter of the room.
  expect(await first.limiter.admit(3, limits)).toEqual({ allowed: true });
  const bySecond = await admitUntilRefused(second.limiter, 3, limits);
  expect(bySecond).toBe(30);
  expect(first.givenBack()).toEqual([]);
  // The first worker's lease runs out with 9 unused: they go back, and the second admits them.
  await delay(200);
  expect(first.givenBack()).toEqual([{ unused: [[3, 9, expect.any(Number)]] }]);
  expect(await admitUntilRefused(second.limiter, 3, limits)).toBe(9);
  expect((await first.limiter.admit(3, limits)).allowed).toBe(false);
});

test('near the limit a lease holds only the requests waiting, and the refused learn when to retry', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter, calls } = watchedWorkerLimiter(1);
  const limits = { rpm: 5, tpm: null };
  // One worker: a lease takes what is waiting or half the room, so 2 of 5, then 1 of 3, then 1 of 2, then 1.
  expect(await admitUntilRefused(limiter, 3, limits)).toBe(5);
  expect(calls().length).toBeGreaterThanOrEqual(4);
  const refused = await limiter.admit(3, limits);
  expect(refused).toMatchObject({ allowed: false, limit: 'rpm' });
  expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
});

test('a lease of another rpm is not spent: a changed limit asks again, and the old lease goes back', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter, calls, givenBack } = watchedWorkerLimiter(1);
  expect(await limiter.admit(4, { rpm: 1_000, tpm: null })).toEqual({ allowed: true });
  // 500 were counted, 499 of them unused: they go back ahead of the question with the new limit,
  // which then finds room for one more request, not none.
  expect(await limiter.admit(4, { rpm: 2, tpm: null })).toEqual({ allowed: true });
  expect(calls()).toHaveLength(2);
  expect(givenBack()).toEqual([{ unused: [[4, 499, expect.any(Number)]] }]);
  expect(await limiter.admit(4, { rpm: 2, tpm: null })).toMatchObject({ allowed: false, limit: 'rpm' });
});

test('closing gives back what the leases left', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const { limiter, givenBack } = watchedWorkerLimiter(1);
  expect(await limiter.admit(6, { rpm: 100, tpm: null })).toEqual({ allowed: true });
  await limiter.close();
  expect(givenBack()).toEqual([{ unused: [[6, 49, expect.any(Number)]] }]);
});

test('a lease ends with its window: the next request asks again, and the unused go back to that window', async () => {
  const minute = 60_000;
  let clock = Math.floor(Date.now() / minute) * minute + 1_000;
  const now = () => clock;
  hub = new PrimaryHub({ logger: createLogger('silent'), limiter: new MemoryRateLimiter(now) });
  const { limiter, calls, givenBack } = watchedWorkerLimiter(1, { leaseMs: 10 * minute, now });
  const limits = { rpm: 100, tpm: null };
  expect(await limiter.admit(8, limits)).toEqual({ allowed: true });
  const windowStart = clock - 1_000;
  clock += minute;
  expect(await limiter.admit(8, limits)).toEqual({ allowed: true });
  expect(calls()).toHaveLength(2);
  expect(givenBack()).toEqual([{ unused: [[8, 49, windowStart]] }]);
});

test('a worker holds one lease per key: one granted for an earlier turn meanwhile goes back', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const first = watchedWorkerLimiter(1, { leaseMs: 50 });
  const limits = { rpm: 100, tpm: null };
  // Two turns ask before the first answer: leases of 50 (1 used) and then 25 (1 used).
  const asked = first.limiter.admit(5, limits);
  await new Promise((resolve) => setImmediate(resolve));
  expect(await Promise.all([asked, first.limiter.admit(5, limits)])).toEqual([
    { allowed: true },
    { allowed: true },
  ]);
  expect(first.calls()).toHaveLength(2);
  await delay(150);
  expect(first.givenBack()).toEqual([
    { unused: [[5, 49, expect.any(Number)]] },
    { unused: [[5, 24, expect.any(Number)]] },
  ]);
  // Only the two requests admitted stay counted.
  const second = watchedWorkerLimiter(2);
  expect(await admitUntilRefused(second.limiter, 5, limits)).toBe(98);
});
