import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from './connect-redis.js';
import type { Logger } from '../observability/logger.js';
import { isJsonObject, parseJson } from '../protocols/wire-json.js';
import type { HealthSync, HealthUpdateListener } from '../routing/health-sync.js';
import { readHealthUpdate, type HealthUpdate } from '../routing/health-update.js';

const DEFAULT_CHANNEL = 'gateway:health';

export interface RedisHealthSyncOptions {
  logger: Logger;
  /** The pub/sub channel; instances that share health must use the same one. */
  channel?: string;
}

/**
 * Channel health shared by every instance on one Redis (DESIGN section 8): each state change is
 * published on a pub/sub channel and applied by the other instances moments later. Health is soft
 * state that traffic relearns, so a publish while Redis is unreachable fails at once (no offline
 * queue to pile up) and is only logged.
 */
export class RedisHealthSync implements HealthSync {
  private readonly instanceId = randomUUID();
  private readonly listeners: HealthUpdateListener[] = [];

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  static async connect(url: string, options: RedisHealthSyncOptions): Promise<RedisHealthSync> {
    const channel = options.channel ?? DEFAULT_CHANNEL;
    const publisher = connectRedis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    const subscriber = connectRedis(url);
    for (const [role, client] of [
      ['publisher', publisher],
      ['subscriber', subscriber],
    ] as const) {
      reportConnectionErrors(client, role, options.logger);
    }
    const sync = new RedisHealthSync(publisher, subscriber, channel, options.logger);
    subscriber.on('message', (received: string, message: string) => {
      if (received === channel) sync.receive(message);
    });
    try {
      await Promise.all([publisher.connect(), subscriber.subscribe(channel)]);
    } catch (error) {
      publisher.disconnect();
      subscriber.disconnect();
      throw error;
    }
    return sync;
  }

  async publish(update: HealthUpdate): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ ...update, origin: this.instanceId }));
  }

  subscribe(listener: HealthUpdateListener): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }

  private receive(message: string): void {
    const parsed = parseJson(message);
    if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.origin === this.instanceId) return;
    const update = readHealthUpdate(parsed.value);
    if (!update) return;
    // Runs inside the Redis client's event handler, where a throw would be uncaught.
    try {
      for (const listener of this.listeners) listener(update);
    } catch (error) {
      this.logger.warn({ err: error }, 'could not apply a shared channel health change');
    }
  }
}

/** One warning per outage and role, not one per reconnect attempt. */
function reportConnectionErrors(client: Redis, role: string, logger: Logger): void {
  let failing = false;
  client.on('error', (error: unknown) => {
    if (!failing) logger.warn({ err: error, role }, 'health sync lost its Redis connection');
    failing = true;
  });
  client.on('ready', () => {
    failing = false;
  });
}
