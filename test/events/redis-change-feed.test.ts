import { expect, test } from 'vitest';
import { RedisChangeFeed } from '../../src/events/redis-change-feed.js';

const redisUrl = process.env.REDIS_URL;

test.runIf(redisUrl)(
  'a cache that fails to reload on a change from another instance is reported, never thrown',
  async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const reported: string[] = [];
    const here = await RedisChangeFeed.connect(redisUrl!, (_error, context) => void reported.push(context));
    const there = await RedisChangeFeed.connect(redisUrl!);
    try {
      here.subscribe(async () => {
        throw new Error('database blip');
      });
      await there.publish('channels');
      for (let waited = 0; reported.length === 0 && waited < 2000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reported).toEqual(['reload of channels']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await here.close();
      await there.close();
    }
  },
);
