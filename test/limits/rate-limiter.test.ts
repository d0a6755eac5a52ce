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
