import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from '../events/connect-redis.js';
import {
  ATTEMPT_WINDOW_MS,
  MAX_FAILED_ATTEMPTS,
  MemoryLoginThrottle,
  type AttemptDecision,
  type AttemptTicket,
  type LoginThrottle,
} from './login-throttle.js';

/**
 * One sorted set of attempt times per subject. Drops attempts older than the window, refuses when
 * a subject is at the limit (answering the milliseconds until its oldest attempt leaves the
 * window), else counts the attempt on every subject: one atomic script, so instances sharing Redis
 * count together. KEYS: the subjects' sets. ARGV: now (ms), window (ms), limit, attempt id.
 */
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local wait = 0
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local left = tonumber(oldest[2]) + window - now
    if left > wait then wait = left end
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('ZREMRANGEBYRANK', key, 0, -(limit + 1))
  redis.call('PEXPIRE', key, window)
end
return 0
`;

/** Connection states in which commands would only wait: counted in the process instead. */
const LOST = new Set(['reconnecting', 'close', 'end']);

interface BeginCommand {
  gatewayLoginBegin(...args: (string | number)[]): Promise<number>;
}

/**
 * Counts in Redis, shared by every instance with the same `REDIS_URL`. While Redis cannot be
 * reached, this process counts on its own rather than locking everyone out of the console.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly redis: Redis;
  private readonly local: MemoryLoginThrottle;
  /** Tickets this process issued while Redis failed. */
  private readonly localTickets = new Set<string>();

  constructor(
    url: string,
    private readonly options: {
      prefix?: string;
      now?: () => number;
      onError?: (error: unknown) => void;
    } = {},
  ) {
    this.redis = connectRedis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableAutoPipelining: true,
    });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('gatewayLoginBegin', { lua: BEGIN_SCRIPT });
    this.local = new MemoryLoginThrottle(options.now);
  }

  async begin(subjects: readonly string[]): Promise<AttemptDecision> {
    const now = this.now();
    const id = randomUUID();
    let waitMs: number;
    try {
      // A lost connection would hold every sign-in until ioredis gave up on it.
      if (LOST.has(this.redis.status)) throw new Error(`Redis connection ${this.redis.status}`);
      const keys = subjects.map((subject) => this.keyOf(subject));
      waitMs = Number(
        await (this.redis as unknown as BeginCommand).gatewayLoginBegin(
          keys.length,
          ...keys,
          now,
          ATTEMPT_WINDOW_MS,
          MAX_FAILED_ATTEMPTS,
          id,
        ),
      );
    } catch (error) {
      this.options.onError?.(error);
      const decision = await this.local.begin(subjects);
      if (decision.allowed) this.localTickets.add(decision.ticket.id);
      return decision;
    }
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    return { allowed: true, ticket: { id, subjects: [...subjects] } };
  }

  async succeed(ticket: AttemptTicket, clear: readonly string[]): Promise<void> {
    if (this.localTickets.delete(ticket.id)) return this.local.succeed(ticket, clear);
    // The attempt keeps counting as failed until it leaves the window: the safe side.
    if (LOST.has(this.redis.status)) return;
    try {
      const transaction = this.redis.multi();
      for (const subject of ticket.subjects) {
        if (clear.includes(subject)) transaction.del(this.keyOf(subject));
        else transaction.zrem(this.keyOf(subject), ticket.id);
      }
      await transaction.exec();
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Usernames can be long and of any characters; their digest keeps keys short and plain. */
  private keyOf(subject: string): string {
    const digest = createHash('sha256').update(subject).digest('base64url');
    return `${this.options.prefix ?? 'gateway:login'}:${digest}`;
  }
}
