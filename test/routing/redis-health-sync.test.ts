import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisHealthSync } from '../../src/events/redis-health-sync.js';
import { keyFingerprint } from '../../src/routing/key-fingerprint.js';
import { captureLogger, eventually, FakeClock, healthWithoutStore } from './health-fixture.js';

// DESIGN section 8: instances sharing one Redis share what they learn about channel health.
const redisUrl = process.env.REDIS_URL;
const channel = { id: 7, keys: ['key-one', 'key-two'], models: ['m', 'n'] };

describe.runIf(redisUrl)('health shared through Redis', () => {
  const closing: (() => void)[] = [];
  afterEach(() => {
    for (const close of closing.splice(0)) close();
  });

  async function twoInstances() {
    const pubsubChannel = `test:health:${randomUUID()}`;
    const clock = new FakeClock();
    const start = async (accept: () => boolean = () => false) => {
      const { logger } = captureLogger();
      const sync = await RedisHealthSync.connect(redisUrl!, { logger, channel: pubsubChannel });
      const fixture = healthWithoutStore({
        clock,
        sync,
        probe: async () => accept(),
        repository: {
          find: async (id: number) =>
            id === channel.id
              ? {
                  ...channel,
                  name: 'c',
                  type: 'openai',
                  baseUrl: null,
                  modelMapping: {},
                  groups: ['default'],
                  priority: 0,
                  weight: 1,
                  endpoints: null,
                  config: {},
                  status: 'enabled' as const,
                  createdAt: 0,
                }
              : undefined,
          all: async () => [],
          transitionStatus: async () => undefined,
        },
      });
      closing.push(() => fixture.health.close());
      return fixture;
    };
    return { clock, start };
  }

  it('a cooldown learned by one instance is seen by the other within a second', async () => {
    const { start } = await twoInstances();
    const first = await start();
    const second = await start();
    first.health.route([channel], 'm').next()!.failed({ retryAfter: '60' });
    const learned = first.health.report(channel).models[0];
    expect(learned).toMatchObject({ state: 'cooling_down', failures: 1 });
    const started = Date.now();
    expect(
      await eventually(() => second.health.report(channel).models[0]?.state === 'cooling_down', 1000),
    ).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(second.health.report(channel).models).toEqual([
      learned,
      expect.objectContaining({ state: 'healthy' }),
    ]);
    expect(
      second.health.order([channel, { id: 8, keys: ['x'], models: ['m'] }], 'm').map((c) => c.id),
    ).toEqual([8]);
  });

  it('a recovery is shared too', async () => {
    const { clock, start } = await twoInstances();
    const first = await start();
    const second = await start();
    first.health.route([channel], 'm').next()!.failed();
    expect(await eventually(() => second.health.report(channel).models[0]?.failures === 1, 1000)).toBe(true);
    clock.advance(5);
    const trial = second.health.route([channel], 'm').next()!;
    expect(trial.trial).toBe(true);
    trial.succeeded();
    expect(await eventually(() => first.health.report(channel).models[0]?.state === 'healthy', 1000)).toBe(
      true,
    );
  });

  it('a key refused on one instance is set aside on the other, and restored on both after its probe', async () => {
    let accept = false;
    const { start } = await twoInstances();
    const first = await start(() => accept);
    const second = await start();
    const attempt = first.health.route([channel], 'm').next()!;
    expect(attempt.key).toBe('key-one');
    attempt.refused();
    expect(await eventually(() => second.health.report(channel).keys[0]?.state === 'refused', 1000)).toBe(
      true,
    );
    expect([second.health.nextKey(channel), second.health.nextKey(channel)]).toEqual(['key-two', 'key-two']);
    accept = true;
    expect(await eventually(() => first.health.report(channel).keys[0]?.state === 'active', 1000)).toBe(true);
    expect(await eventually(() => second.health.report(channel).keys[0]?.state === 'active', 1000)).toBe(
      true,
    );
  });

  it('messages carry fingerprints, never keys', async () => {
    const { start } = await twoInstances();
    const first = await start();
    const listener = new Redis(redisUrl!);
    closing.push(() => listener.disconnect());
    const messages: string[] = [];
    await listener.psubscribe('test:health:*');
    listener.on(
      'pmessage',
      (_pattern: string, _channel: string, message: string) => void messages.push(message),
    );
    first.health.route([channel], 'm').next()!.refused();
    expect(await eventually(() => messages.length > 0, 1000)).toBe(true);
    expect(messages.join('\n')).toContain(keyFingerprint('key-one'));
    expect(messages.join('\n')).not.toContain('key-one');
  });
});
