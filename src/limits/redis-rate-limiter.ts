import type { Redis } from 'ioredis';
import { connectRedis } from '../events/connect-redis.js';
import {
  secondsUntilAllowed,
  WINDOW_MS,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
} from './rate-limiter.js';

/**
 * Reads both windows of both counters and, when the request is allowed, counts it — one atomic
 * script, so instances sharing Redis can never admit more than the limit between them.
 * KEYS: current requests, previous requests, current tokens, previous tokens.
 * ARGV: rpm (or -1), tpm (or -1), weight of the previous window (0..1), window TTL in ms.
 * Returns: [admitted (1/0), which limit refused (0 none, 1 rpm, 2 tpm), req current, req previous, tok current, tok previous].
 */
const ADMIT_SCRIPT = `
local rc = tonumber(redis.call('GET', KEYS[1]) or '0')
local rp = tonumber(redis.call('GET', KEYS[2]) or '0')
local tc = tonumber(redis.call('GET', KEYS[3]) or '0')
local tp = tonumber(redis.call('GET', KEYS[4]) or '0')
local rpm = tonumber(ARGV[1])
local tpm = tonumber(ARGV[2])
local weight = tonumber(ARGV[3])
if tpm >= 0 and tp * weight + tc >= tpm then return {0, 2, rc, rp, tc, tp} end
if rpm >= 0 and rp * weight + rc + 1 > rpm then return {0, 1, rc, rp, tc, tp} end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, 0, rc, rp, tc, tp}
`;

/** Counters in Redis, shared by every instance that uses the same `REDIS_URL`. */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'gateway:rate',
    private readonly now: () => number = Date.now,
  ) {
    this.redis = connectRedis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('gatewayAdmit', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
  }

  async admit(keyId: number, limits: RateLimits): Promise<RateDecision> {
    if (limits.rpm === null && limits.tpm === null) return { allowed: true };
    const { window, elapsed } = this.position();
    const keys = this.keysFor(keyId, window);
    const weight = 1 - elapsed / WINDOW_MS;
    const result = (await (
      this.redis as unknown as { gatewayAdmit(...args: (string | number)[]): Promise<number[]> }
    ).gatewayAdmit(...keys, limits.rpm ?? -1, limits.tpm ?? -1, weight, 2 * WINDOW_MS)) as number[];
    const [admitted, refusedBy, rc = 0, rp = 0, tc = 0, tp = 0] = result;
    if (admitted === 1) return { allowed: true };
    if (refusedBy === 2 && limits.tpm !== null) {
      const counts = { current: tc, previous: tp };
      return {
        allowed: false,
        limit: 'tpm',
        retryAfterSeconds: secondsUntilAllowed({
          counts,
          elapsedInWindowMs: elapsed,
          limit: limits.tpm,
          cost: 1,
        }),
      };
    }
    const counts = { current: rc, previous: rp };
    return {
      allowed: false,
      limit: 'rpm',
      retryAfterSeconds: secondsUntilAllowed({
        counts,
        elapsedInWindowMs: elapsed,
        limit: limits.rpm ?? 0,
        cost: 1,
      }),
    };
  }

  async recordTokens(keyId: number, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    const { window } = this.position();
    const key = `${this.prefix}:${keyId}:t:${window}`;
    await this.redis
      .multi()
      .incrby(key, tokens)
      .pexpire(key, 2 * WINDOW_MS)
      .exec();
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }

  private position(): { window: number; elapsed: number } {
    const now = this.now();
    return { window: Math.floor(now / WINDOW_MS), elapsed: now % WINDOW_MS };
  }

  private keysFor(keyId: number, window: number): string[] {
    const base = `${this.prefix}:${keyId}`;
    return [
      `${base}:r:${window}`,
      `${base}:r:${window - 1}`,
      `${base}:t:${window}`,
      `${base}:t:${window - 1}`,
    ];
  }
}
