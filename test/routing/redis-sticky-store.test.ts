import { createServer, type Server, type Socket, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisStickyStore } from '../../src/routing/policy/affinity/redis-sticky-store.js';
import { StickyRoutes } from '../../src/routing/policy/affinity/sticky-routes.js';
import { eventually } from './health-fixture.js';

// admin-api 11.4: with Redis, every instance follows the same sticky choice.
const redisUrl = process.env.REDIS_URL;
const choice = { channelId: 12, model: 'claude-sonnet-4-5' };

function newId(): string {
  return randomBytes(16).toString('hex');
}

/** A loopback port with nothing listening on it. */
async function deadLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A loopback relay to Redis the test can stall (Redis stops answering) or shut (Redis becomes
 * unreachable), standing for an outage of the real server.
 */
async function relayToRedis(target: string) {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let stalled = false;
  const server: Server = createServer((client) => {
    const redis = connect(Number(upstream.port || 6379), upstream.hostname);
    for (const socket of [client, redis]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => {
      if (!stalled) redis.write(chunk);
    });
    redis.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(target);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as { port: number }).port);
  return {
    url: relayed.toString(),
    stall: () => {
      stalled = true;
    },
    shut: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.runIf(redisUrl)('RedisStickyStore', () => {
  const closing: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  async function store(url = redisUrl!, errors: unknown[] = []) {
    const opened = await RedisStickyStore.connect(url, { onError: (error) => void errors.push(error) });
    closing.push(() => opened.close());
    return opened;
  }

  function rawClient(): Redis {
    const client = new Redis(redisUrl!);
    closing.push(() => client.disconnect());
    return client;
  }

  it('keeps a choice under gateway:sticky:<id> until its ttl ends', async () => {
    const sticky = await store();
    const raw = rawClient();
    const id = newId();
    sticky.set(id, choice, 300);
    expect(await eventually(async () => (await sticky.get(id)) !== undefined, 1000)).toBe(true);
    expect(await sticky.get(id)).toEqual(choice);
    expect(JSON.parse((await raw.get(`gateway:sticky:${id}`))!)).toEqual(choice);
    const ttl = await raw.pttl(`gateway:sticky:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await sleep(400);
    expect(await sticky.get(id)).toBeUndefined();
  });

  it('answers undefined for a malformed value', async () => {
    const sticky = await store();
    const raw = rawClient();
    const values = ['not json', '{"channelId":0,"model":"m"}', '{"channelId":1}', '[1]'];
    for (const value of values) {
      const id = newId();
      await raw.set(`gateway:sticky:${id}`, value, 'PX', 10_000);
      expect(await sticky.get(id)).toBeUndefined();
    }
    const id = newId();
    await raw.hset(`gateway:sticky:${id}`, 'channelId', '1');
    await raw.pexpire(`gateway:sticky:${id}`, 10_000);
    expect(await sticky.get(id)).toBeUndefined();
  });

  it('shares a choice between two instances', async () => {
    const id = newId();
    const first = new StickyRoutes({ store: await store() });
    const second = new StickyRoutes({ store: await store() });
    expect(await second.lookup(id)).toBeUndefined();
    first.remember(id, choice, 10_000);
    expect(await eventually(async () => (await second.lookup(id)) !== undefined, 1000)).toBe(true);
    expect(await second.lookup(id)).toEqual(choice);
  });

  it('refuses to connect to a Redis that is not there, quickly', async () => {
    const started = Date.now();
    await expect(RedisStickyStore.connect(`redis://127.0.0.1:${await deadLoopbackPort()}`)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers undefined at once once Redis is unreachable, and never throws', async () => {
    const relay = await relayToRedis(redisUrl!);
    const errors: unknown[] = [];
    const sticky = await store(relay.url, errors);
    const id = newId();
    sticky.set(id, choice, 10_000);
    expect(await eventually(async () => (await sticky.get(id)) !== undefined, 1000)).toBe(true);
    await relay.shut();
    expect(await eventually(() => errors.length > 0, 1000)).toBe(true);
    const started = Date.now();
    expect(await sticky.get(id)).toBeUndefined();
    expect(() => sticky.set(id, choice, 10_000)).not.toThrow();
    expect(await sticky.get(id)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(50);
    const routes = new StickyRoutes({ store: sticky });
    expect(await routes.lookup(newId())).toBeUndefined();
  });

  it('answers undefined after its bounded wait when Redis stops answering', async () => {
    const relay = await relayToRedis(redisUrl!);
    closing.push(() => relay.shut());
    const sticky = await store(relay.url);
    const id = newId();
    sticky.set(id, choice, 10_000);
    expect(await eventually(async () => (await sticky.get(id)) !== undefined, 1000)).toBe(true);
    relay.stall();
    const started = Date.now();
    expect(await sticky.get(id)).toBeUndefined();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(40);
    expect(waited).toBeLessThan(300);
  });
});
