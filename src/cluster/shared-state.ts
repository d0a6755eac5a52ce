import { LocalChangeFeed, type ChangeFeed } from '../events/change-feed.js';
import type { LoginThrottle } from '../limits/login-throttle.js';
import { openLoginThrottle } from '../limits/open-login-throttle.js';
import { RedisChangeFeed } from '../events/redis-change-feed.js';
import { RedisHealthSync } from '../events/redis-health-sync.js';
import { RedisStickyStore } from '../routing/policy/affinity/redis-sticky-store.js';
import { MemoryRateLimiter } from '../limits/memory-rate-limiter.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { RedisRateLimiter } from '../limits/redis-rate-limiter.js';
import type { Logger } from '../observability/logger.js';
import { LocalHealthSync, type HealthSync } from '../routing/health-sync.js';
import { IpcChangeFeed } from '../events/ipc-change-feed.js';
import { IpcHealthSync } from '../events/ipc-health-sync.js';
import { IpcLoginThrottle } from '../limits/ipc-login-throttle.js';
import type { IpcLink } from './ipc-link.js';
import { IpcRateLimiter } from '../limits/ipc-rate-limiter.js';

/** What every server process must see alike: change notices, rate counters, channel health, sign-in attempts. */
export interface SharedState {
  changes: ChangeFeed;
  rateLimiter: RateLimiter;
  /** Channel health, and what routing learns from traffic (`openRoutingMemory`). */
  healthSync: HealthSync;
  /** With Redis: sticky choices with their time to live, for instances that did not hear of them. */
  stickyStore?: RedisStickyStore | undefined;
  loginThrottle: LoginThrottle;
}

/**
 * Where the shared state lives (DESIGN section 8): in Redis when `REDIS_URL` is set, shared by
 * every instance on every machine; else, in a cluster worker, in the primary process, asked over
 * IPC, shared by the workers of this machine; else in this process, the only one. Change notices
 * go through the primary in a cluster either way, so that a change is seen by every worker of the
 * machine before the management API answers.
 */
export async function openSharedState(options: {
  redisUrl: string | undefined;
  /** The worker's channel to its primary; absent outside a cluster. */
  primary: IpcLink | undefined;
  logger: Logger;
}): Promise<SharedState> {
  const { redisUrl, primary, logger } = options;
  const onChangeError = (error: unknown, context: string) =>
    logger.warn({ err: error, context }, 'change feed trouble');
  if (redisUrl) {
    const redisChanges = await RedisChangeFeed.connect(redisUrl, onChangeError);
    return {
      // A cluster's workers also hear of changes through their primary, which waits for them.
      changes: primary
        ? new IpcChangeFeed(primary, { base: redisChanges, onError: onChangeError })
        : redisChanges,
      rateLimiter: new RedisRateLimiter(redisUrl),
      healthSync: await RedisHealthSync.connect(redisUrl, { logger }),
      stickyStore: await RedisStickyStore.connect(redisUrl, {
        onError: (error) => logger.warn({ err: error }, 'sticky routing lost its Redis connection'),
      }),
      loginThrottle: openLoginThrottle({ redisUrl, logger }),
    };
  }
  if (primary) {
    return {
      changes: new IpcChangeFeed(primary, { onError: onChangeError }),
      rateLimiter: new IpcRateLimiter(primary, {
        onError: (error) =>
          logger.warn(
            { err: error },
            'the primary did not answer a rate limit check; counting in this worker',
          ),
      }),
      healthSync: new IpcHealthSync(primary),
      loginThrottle: new IpcLoginThrottle(primary, (error) =>
        logger.warn({ err: error }, 'the primary did not answer a sign-in check; counting in this worker'),
      ),
    };
  }
  return {
    changes: new LocalChangeFeed(),
    rateLimiter: new MemoryRateLimiter(),
    healthSync: new LocalHealthSync(),
    loginThrottle: openLoginThrottle({ redisUrl: undefined, logger }),
  };
}
