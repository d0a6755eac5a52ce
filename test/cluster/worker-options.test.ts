import { expect, test } from 'vitest';
import { readWorkerCount } from '../../src/cluster/read-worker-count.js';
import { RespawnBackoff } from '../../src/cluster/respawn-backoff.js';

test('GATEWAY_WORKERS: 1 by default, auto is one per core, whole numbers only', () => {
  expect(readWorkerCount(undefined, 8)).toBe(1);
  expect(readWorkerCount('', 8)).toBe(1);
  expect(readWorkerCount('auto', 8)).toBe(8);
  expect(readWorkerCount('AUTO', 2)).toBe(2);
  expect(readWorkerCount('3', 8)).toBe(3);
  for (const wrong of ['0', '-2', '1.5', 'many', '99999'])
    expect(() => readWorkerCount(wrong, 8)).toThrow(/GATEWAY_WORKERS/);
});

test('a worker that dies after a stable life is replaced at once; a crash loop backs off', () => {
  const backoff = new RespawnBackoff({ initialMs: 100, maxMs: 1_000, stableMs: 10_000 });
  expect(backoff.next(60_000)).toBe(0);
  expect(backoff.next(50)).toBe(100);
  expect(backoff.next(50)).toBe(200);
  expect(backoff.next(50)).toBe(400);
  expect(backoff.next(50)).toBe(800);
  expect(backoff.next(50)).toBe(1_000);
  expect(backoff.next(50)).toBe(1_000);
  // A stable life again ends the loop.
  expect(backoff.next(10_000)).toBe(0);
  expect(backoff.next(10)).toBe(100);
});
