import type { Redis, RedisOptions } from 'ioredis';
import { loadOnFirstUse } from '../load-on-first-use.js';

const ioredis = loadOnFirstUse<typeof import('ioredis')>('ioredis');

/** A new Redis connection (ioredis is loaded by the first). */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return new (ioredis().Redis)(url, options);
}
