import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { MemoryRateLimiter } from '../../src/limits/memory-rate-limiter.js';
import { secondsUntilAllowed, type RateLimiter } from '../../src/limits/rate-limiter.js';
import { RedisRateLimiter } from '../../src/limits/redis-rate-limiter.js';

interface Variant {
  name: string;
  create(now: () => number): RateLimiter;
}

const variants: Variant[] = [{ name: 'memory', create: (now) => new MemoryRateLimiter(now) }];
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  variants.push({
    name: 'redis',
    create: (now) => new RedisRateLimiter(redisUrl, `test:${randomBytes(6).toString('hex')}`, now),
  });
}

const MINUTE = 60_000;
/** A window boundary well in the future, so Redis keys of other runs never collide. */
const BASE = Math.floor(Date.now() / MINUTE) * MINUTE;

describe.each(variants)('$name rate limiter', (variant) => {
  let limiter: RateLimiter;
  let clock = BASE;
  const now = () => clock;
  afterEach(async () => limiter.close());

  test('rpm: admits up to the limit, then refuses with a retry time', async () => {
    clock = BASE + 1_000;
    limiter = variant.create(now);
    for (let index = 0; index < 3; index += 1)
      expect(await limiter.admit(7, { rpm: 3, tpm: null })).toEqual({ allowed: true });
    const refused = await limiter.admit(7, { rpm: 3, tpm: null });
    expect(refused).toMatchObject({ allowed: false, limit: 'rpm' });
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    // another key has its own counters
    expect(await limiter.admit(8, { rpm: 3, tpm: null })).toEqual({ allowed: true });
  });

  test('the previous window fades out over the next minute', async () => {
    clock = BASE + 59_000;
    limiter = variant.create(now);
    for (let index = 0; index < 4; index += 1) await limiter.admit(1, { rpm: 4, tpm: null });
    clock = BASE + MINUTE + 15_000; // previous window still weighs 3/4: 3 of 4 used
    expect(await limiter.admit(1, { rpm: 4, tpm: null })).toEqual({ allowed: true });
    expect((await limiter.admit(1, { rpm: 4, tpm: null })).allowed).toBe(false);
    clock = BASE + MINUTE + 45_000; // weighs 1/4: 1 + 1 used
    expect(await limiter.admit(1, { rpm: 4, tpm: null })).toEqual({ allowed: true });
  });

  test('tpm: refuses once the tokens recorded this minute reach the limit', async () => {
    clock = BASE + 2_000;
    limiter = variant.create(now);
    expect(await limiter.admit(2, { rpm: null, tpm: 1000 })).toEqual({ allowed: true });
    await limiter.recordTokens(2, 600);
    expect(await limiter.admit(2, { rpm: null, tpm: 1000 })).toEqual({ allowed: true });
    await limiter.recordTokens(2, 400);
    const refused = await limiter.admit(2, { rpm: null, tpm: 1000 });
    expect(refused).toMatchObject({ allowed: false, limit: 'tpm' });
  });

  test('keys without limits are always admitted', async () => {
    limiter = variant.create(now);
    for (let index = 0; index < 100; index += 1) {
      expect(await limiter.admit(3, { rpm: null, tpm: null })).toEqual({ allowed: true });
    }
  });
});

test('retry time: until the next window, or until the previous window has faded enough', () => {
  // next window starts in 50 s; there 5w + 1 <= 5 needs w <= 0.8, 12 s later
  expect(
    secondsUntilAllowed({
      counts: { previous: 0, current: 5 },
      elapsedInWindowMs: 10_000,
      limit: 5,
      cost: 1,
    }),
  ).toBe(62);
  // previous 10 at weight w: 10w + 2 + 1 <= 5  =>  w <= 0.2  =>  48 s into the window
  expect(
    secondsUntilAllowed({
      counts: { previous: 10, current: 2 },
      elapsedInWindowMs: 30_000,
      limit: 5,
      cost: 1,
    }),
  ).toBe(18);
});

describe('memory rate limiter leases', () => {
  let clock = BASE;
  const limiter = new MemoryRateLimiter(() => clock);

  test('a lease counts what is waiting or, when more, a share of the room, never more than the room', async () => {
    clock = BASE + 1_000;
    expect(limiter.lease(20, 100, 3, 4)).toEqual({ granted: 25, windowStart: BASE });
    expect(limiter.lease(20, 100, 1, 4)).toEqual({ granted: 18, windowStart: BASE });
    // 57 left: what is waiting, when it is more than the share.
    expect(limiter.lease(20, 100, 40, 4)).toEqual({ granted: 40, windowStart: BASE });
    // 17 left for 30 waiting: 17, and the rest refused with admit's own retry time.
    const short = limiter.lease(20, 100, 30, 4);
    expect(short).toMatchObject({ granted: 17, windowStart: BASE });
    const refused = await limiter.admit(20, { rpm: 100, tpm: null });
    expect(refused).toMatchObject({ allowed: false, limit: 'rpm' });
    expect(short.retryAfterSeconds).toBe((refused as { retryAfterSeconds: number }).retryAfterSeconds);
    // A large room lends at most a thousand at once.
    expect(limiter.lease(21, 1_000_000, 1, 2).granted).toBe(1_000);
  });

  test('what a lease left unused goes back to the window it was counted in', async () => {
    clock = BASE + 1_000;
    expect(limiter.lease(22, 10, 10, 2).granted).toBe(10);
    limiter.giveBack(22, 4, BASE);
    expect(limiter.lease(22, 10, 5, 2)).toMatchObject({ granted: 4 });
    // In the next window it comes off the previous one, whose weight still counts.
    limiter.giveBack(22, 2, BASE);
    clock = BASE + MINUTE + 30_000;
    limiter.giveBack(22, 8, BASE);
    // previous 8 - 8 = 0 (the unused 2 went back before): the whole limit is free again.
    expect(limiter.lease(22, 10, 10, 2).granted).toBe(10);
    // A window two back, or a key never counted, changes nothing.
    limiter.giveBack(22, 5, BASE - MINUTE);
    limiter.giveBack(23, 5, BASE);
    expect(limiter.lease(22, 10, 1, 2).granted).toBe(0);
  });
});
