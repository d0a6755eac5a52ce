import { describe, expect, test } from 'vitest';
import type { Logger } from '../../src/observability/logger.js';
import { readHealthUpdate, type HealthUpdate } from '../../src/routing/health-update.js';
import type { HealthSync, HealthUpdateListener } from '../../src/routing/health-sync.js';
import { openRoutingMemory } from '../../src/routing/policy/routing-memory.js';

/** Processes joined the way the IPC and Redis syncs join them: each update reaches every other, as JSON. */
function linkedSyncs(count: number): HealthSync[] {
  const listeners: HealthUpdateListener[][] = Array.from({ length: count }, () => []);
  return listeners.map((own, index) => ({
    async publish(update: HealthUpdate) {
      const wire = JSON.parse(JSON.stringify(update)) as unknown;
      for (const [other, heard] of listeners.entries()) {
        if (other === index) continue;
        const received = readHealthUpdate(wire);
        if (received) for (const listener of heard) listener(received);
      }
    },
    subscribe(listener: HealthUpdateListener) {
      own.push(listener);
    },
    async close() {},
  }));
}

const silent = { warn: () => undefined } as unknown as Logger;

describe('routing memory shared like channel health', () => {
  test('a sticky choice made in one process is the choice of the others', async () => {
    const [one, two] = linkedSyncs(2).map((sync) => openRoutingMemory({ sync, logger: silent }));
    one!.sticky.remember('0123456789abcdef0123456789abcdef', { channelId: 3, model: 'gpt-4o' }, 60_000);
    await Promise.resolve();
    expect(two!.sticky.lookup('0123456789abcdef0123456789abcdef')).toEqual({ channelId: 3, model: 'gpt-4o' });
  });

  test("one process's latency estimates reach the others", async () => {
    const [one, two] = linkedSyncs(2).map((sync) => openRoutingMemory({ sync, logger: silent }));
    one!.latency.record(5, 'gpt-4o', 120);
    await Promise.resolve();
    expect(two!.latency.estimate(5, 'gpt-4o')).toBe(120);
  });

  test('health readers pass over routing updates, and malformed ones are dropped', () => {
    expect(readHealthUpdate({ kind: 'latency', channelId: 5, model: 'm', ms: 10, at: 1 })).toMatchObject({
      kind: 'latency',
    });
    expect(readHealthUpdate({ kind: 'latency', channelId: 5, model: 'm', ms: -1, at: 1 })).toBeUndefined();
    expect(
      readHealthUpdate({ kind: 'sticky', id: 'not-hex', channelId: 5, model: 'm', untilMs: 9, at: 1 }),
    ).toBeUndefined();
  });

  test('a publish that fails is logged once, and the choice still holds here', async () => {
    const warnings: unknown[] = [];
    const failing: HealthSync = {
      publish: async () => {
        throw new Error('Redis is down');
      },
      subscribe: () => undefined,
      close: async () => undefined,
    };
    const memory = openRoutingMemory({
      sync: failing,
      logger: { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger,
    });
    for (const id of ['0'.repeat(32), '1'.repeat(32)])
      memory.sticky.remember(id, { channelId: 1, model: 'm' }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warnings).toHaveLength(1);
    expect(memory.sticky.lookup('0'.repeat(32))).toEqual({ channelId: 1, model: 'm' });
  });
});
