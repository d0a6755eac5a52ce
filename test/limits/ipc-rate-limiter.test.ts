import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { IpcLink } from '../../src/cluster/ipc-link.js';
import { IpcRateLimiter } from '../../src/limits/ipc-rate-limiter.js';
import { PrimaryHub } from '../../src/cluster/primary-hub.js';
import { createLogger } from '../../src/observability/logger.js';
import { ipcPortPair } from '../helpers/ipc-port-pair.js';

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
