import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from './connect-redis.js';
import { isJsonObject, parseJson } from '../protocols/wire-json.js';
import {
  CHANGE_TOPICS,
  LocalChangeFeed,
  type ChangeFeed,
  type ChangeListener,
  type ChangeTopic,
} from './change-feed.js';

const CHANNEL = 'gateway:changes';
const topics = new Set<string>(CHANGE_TOPICS);

/**
 * Change notices shared by every instance on one Redis: a change made here reaches the local caches
 * before `publish` resolves, and the other instances' caches moments later through pub/sub.
 */
export class RedisChangeFeed implements ChangeFeed {
  private readonly local = new LocalChangeFeed();
  private readonly instanceId = randomUUID();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly onError: (error: unknown, context: string) => void,
  ) {}

  /** `onError` hears of connection trouble and of caches that failed to reload; nothing is thrown. */
  static async connect(
    url: string,
    onError: (error: unknown, context: string) => void = () => undefined,
  ): Promise<RedisChangeFeed> {
    const publisher = connectRedis(url, { maxRetriesPerRequest: 2 });
    const subscriber = connectRedis(url);
    publisher.on('error', (error: unknown) => onError(error, 'change feed publisher'));
    subscriber.on('error', (error: unknown) => onError(error, 'change feed subscriber'));
    const feed = new RedisChangeFeed(publisher, subscriber, onError);
    subscriber.on('message', (_channel: string, message: string) => feed.receive(message));
    await subscriber.subscribe(CHANNEL);
    return feed;
  }

  async publish(topic: ChangeTopic): Promise<void> {
    await this.local.deliver(topic);
    await this.publisher.publish(CHANNEL, JSON.stringify({ topic, origin: this.instanceId }));
  }

  subscribe(listener: ChangeListener): void {
    this.local.subscribe(listener);
  }

  /** Runs this process's listeners only, for a change another channel announced (a cluster's primary). */
  async deliver(topic: ChangeTopic): Promise<void> {
    await this.local.deliver(topic);
  }

  async close(): Promise<void> {
    await this.local.close();
    this.subscriber.disconnect();
    await this.publisher.quit();
  }

  private receive(message: string): void {
    const parsed = parseJson(message);
    if (!parsed.ok || !isJsonObject(parsed.value)) return;
    const notice = parsed.value;
    const topic = notice.topic;
    if (notice.origin === this.instanceId || typeof topic !== 'string' || !topics.has(topic)) return;
    this.local
      .deliver(topic as ChangeTopic)
      .catch((error: unknown) => this.onError(error, `reload of ${topic}`));
  }
}
