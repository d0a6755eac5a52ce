import type { Logger } from '../observability/logger.js';
import { MemoryLoginThrottle, type LoginThrottle } from './login-throttle.js';
import { RedisLoginThrottle } from './redis-login-throttle.js';

/** Sign-in attempts counted in Redis when the gateway has one (instances then count together), else in memory. */
export function openLoginThrottle(options: { redisUrl: string | undefined; logger: Logger }): LoginThrottle {
  if (!options.redisUrl) return new MemoryLoginThrottle();
  return new RedisLoginThrottle(options.redisUrl, {
    onError: (error) => options.logger.warn({ err: error }, 'sign-in attempts counted in this process only'),
  });
}
