import type { Redis } from 'ioredis';
import { connectRedis } from '../events/connect-redis.js';
import { sql } from 'kysely';
import type { Store } from '../store/database.js';

/** What `/readyz` reports: every part that must answer, and whether the gateway is shutting down. */
export type ReadinessReport =
  | { ready: true; checks: Record<string, 'ok'> }
  | { ready: false; shuttingDown: boolean; failing: string[]; checks: Record<string, 'ok' | 'failing'> };

/** Each part gets this long to answer one check. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Whether this instance should get traffic (admin-api section 9): the database answers, Redis
 * answers when configured, and shutdown has not begun. Checked on each call, so a load balancer
 * sees an outage on its next probe and the return just as soon.
 */
export class Readiness {
  private shuttingDown = false;
  private readonly store: Store;
  private readonly redis: Redis | undefined;

  constructor(options: { store: Store; redisUrl: string | undefined }) {
    this.store = options.store;
    // A connection of its own that fails fast: with Redis down, a check must not wait in a queue.
    this.redis = options.redisUrl
      ? connectRedis(options.redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          connectTimeout: CHECK_TIMEOUT_MS,
        })
      : undefined;
    // Connection errors are what the checks report; the client reconnects by itself.
    this.redis?.on('error', () => undefined);
  }

  /** From now on the instance reports not ready, so load balancers drain it. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async check(): Promise<ReadinessReport> {
    const parts: [string, () => Promise<unknown>][] = [['database', () => this.pingDatabase()]];
    const { redis } = this;
    if (redis) parts.push(['redis', () => this.pingRedis(redis)]);
    const results = await Promise.all(parts.map(([, check]) => withinTimeout(check())));
    const checks: Record<string, 'ok' | 'failing'> = {};
    const failing: string[] = [];
    parts.forEach(([name], index) => {
      checks[name] = results[index] ? 'ok' : 'failing';
      if (!results[index]) failing.push(name);
    });
    if (this.shuttingDown) failing.unshift('shutdown');
    if (failing.length === 0) return { ready: true, checks: checks as Record<string, 'ok'> };
    return { ready: false, shuttingDown: this.shuttingDown, failing, checks };
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private async pingDatabase(): Promise<void> {
    await sql`select 1`.execute(this.store.db);
  }

  private async pingRedis(redis: Redis): Promise<void> {
    await redis.ping();
  }
}

/** True when the check answered in time. */
async function withinTimeout(check: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
