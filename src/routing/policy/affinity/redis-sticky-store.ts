import type { Redis } from 'ioredis';
import { connectRedis } from '../../../events/connect-redis.js';
import { parseJson } from '../../../protocols/wire-json.js';
import { readStickyChoice, type StickyChoice } from './sticky-update.js';

const KEY_PREFIX = 'gateway:sticky:';
const DEFAULT_WAIT_MS = 50;

/** Where sticky choices are kept beyond one process (see `StickyRoutes`). */
export interface StickyStore {
  /** The choice held for `id`; undefined when none, or when the store cannot tell in time. */
  get(id: string): Promise<StickyChoice | undefined>;
  /** Keeps the choice for `ttlMs`; fire-and-forget, never throws. */
  set(id: string, choice: StickyChoice, ttlMs: number): void;
}

export interface RedisStickyStoreOptions {
  /** Told of a lost connection (once per outage) and of failed commands. */
  onError?: (error: unknown) => void;
  /** How long `get` waits for Redis before answering undefined. */
  waitMs?: number;
}

/**
 * Sticky choices in Redis, shared by every instance on it: `gateway:sticky:<id>` holds
 * `{"channelId","model"}` and expires with the choice. Affinity only helps prompt caches, so it
 * never holds a request up: `get` answers undefined after `waitMs` (50 ms by default) when Redis is
 * slow, and at once when it is unreachable (no offline queue, so commands fail instead of piling up
 * while the connection is down). The request then routes as usual.
 */
export class RedisStickyStore implements StickyStore {
  private readonly waitMs: number;

  private constructor(
    private readonly client: Redis,
    private readonly options: RedisStickyStoreOptions,
  ) {
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  }

  /** Connects, rejecting when Redis cannot be reached, as the other shared state does at start. */
  static async connect(url: string, options: RedisStickyStoreOptions = {}): Promise<RedisStickyStore> {
    const client = connectRedis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    reportConnectionErrors(client, options.onError);
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw error;
    }
    return new RedisStickyStore(client, options);
  }

  async get(id: string): Promise<StickyChoice | undefined> {
    // The lost connection is reported once by the error listener, not on every request.
    if (this.client.status !== 'ready') return undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, this.waitMs, undefined);
    });
    try {
      const stored = await Promise.race([this.client.get(KEY_PREFIX + id), late]);
      if (typeof stored !== 'string') return undefined;
      const parsed = parseJson(stored);
      return parsed.ok ? readStickyChoice(parsed.value) : undefined;
    } catch (error) {
      this.options.onError?.(error);
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  set(id: string, choice: StickyChoice, ttlMs: number): void {
    if (this.client.status !== 'ready' || !Number.isFinite(ttlMs) || ttlMs <= 0) return;
    const value = JSON.stringify({ channelId: choice.channelId, model: choice.model });
    this.client.set(KEY_PREFIX + id, value, 'PX', Math.ceil(ttlMs)).catch((error: unknown) => {
      this.options.onError?.(error);
    });
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/** One report per outage, not one per reconnect attempt; without a listener ioredis would print each. */
function reportConnectionErrors(client: Redis, onError: ((error: unknown) => void) | undefined): void {
  let failing = false;
  client.on('error', (error: unknown) => {
    if (!failing) onError?.(error);
    failing = true;
  });
  client.on('ready', () => {
    failing = false;
  });
}
