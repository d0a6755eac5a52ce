import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { IpcChangeFeed } from '../../src/events/ipc-change-feed.js';
import { IpcHealthSync } from '../../src/events/ipc-health-sync.js';
import { IpcLink } from '../../src/cluster/ipc-link.js';
import { PrimaryHub } from '../../src/cluster/primary-hub.js';
import type { ChangeTopic } from '../../src/events/change-feed.js';
import { RedisChangeFeed } from '../../src/events/redis-change-feed.js';
import { createLogger } from '../../src/observability/logger.js';
import type { HealthUpdate } from '../../src/routing/health-update.js';
import { ipcPortPair, type PortPair } from '../helpers/ipc-port-pair.js';

interface Worker {
  id: number;
  pair: PortPair;
  link: IpcLink;
  feed: IpcChangeFeed;
  /** Topics whose slow reload has finished here. */
  reloaded: ChangeTopic[];
}

let hub: PrimaryHub;
const workers: Worker[] = [];

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.link.close();
  await hub.close();
});

/** A worker whose caches take 30 ms to reload, as a database round trip would. */
async function addWorker(options: { join: boolean }): Promise<Worker> {
  const id = workers.length + 1;
  const pair = ipcPortPair();
  hub.attach(id, pair.primary);
  const link = new IpcLink(pair.worker);
  const feed = new IpcChangeFeed(link);
  const worker: Worker = { id, pair, link, feed, reloaded: [] };
  feed.subscribe(async (topic) => {
    await delay(30);
    worker.reloaded.push(topic);
  });
  workers.push(worker);
  if (options.join) await link.call('join', {}, 1_000);
  return worker;
}

test('publish resolves once every other worker has reloaded, and the publisher first', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const [first, second, third] = [
    await addWorker({ join: true }),
    await addWorker({ join: true }),
    await addWorker({ join: true }),
  ];
  await first!.feed.publish('channels');
  expect(first!.reloaded).toEqual(['channels']);
  expect(second!.reloaded).toEqual(['channels']);
  expect(third!.reloaded).toEqual(['channels']);

  await third!.feed.publish('keys');
  expect(workers.map((worker) => worker.reloaded.at(-1))).toEqual(['keys', 'keys', 'keys']);
  expect(workers.map((worker) => worker.reloaded.length)).toEqual([2, 2, 2]);
});

test('a worker still starting gets the changes it missed when it joins, before the join answers', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const running = await addWorker({ join: true });
  const starting = await addWorker({ join: false });
  await running.feed.publish('prices');
  await running.feed.publish('prices');
  await running.feed.publish('users');
  expect(starting.reloaded).toEqual([]);
  await starting.link.call('join', {}, 1_000);
  expect(starting.reloaded.sort()).toEqual(['prices', 'users']);
  // Joined: the next change reaches it at once.
  await running.feed.publish('groups');
  expect(starting.reloaded).toContain('groups');
});

test('a dead worker does not hold a change up', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const alive = await addWorker({ join: true });
  const dead = await addWorker({ join: true });
  dead.pair.cut();
  const started = Date.now();
  await alive.feed.publish('settings');
  expect(Date.now() - started).toBeLessThan(1_000);
  hub.detach(dead.id);
  await alive.feed.publish('settings');
  expect(alive.reloaded).toEqual(['settings', 'settings']);
});

test('health changes reach every other worker, not the one that made them', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const syncs = [];
  const heard: HealthUpdate[][] = [];
  for (let index = 0; index < 3; index += 1) {
    const worker = await addWorker({ join: true });
    const sync = new IpcHealthSync(worker.link);
    const list: HealthUpdate[] = [];
    sync.subscribe((update) => list.push(update));
    syncs.push(sync);
    heard.push(list);
  }
  const update: HealthUpdate = { kind: 'pair', channelId: 4, model: 'm', failures: 2, untilMs: 9, at: 7 };
  await syncs[1]!.publish(update);
  await delay(20);
  expect(heard).toEqual([[update], [], [update]]);
});

const redisUrl = process.env.REDIS_URL;

test.runIf(redisUrl)(
  'with Redis, the workers of the machine have reloaded when publish resolves; other machines hear it too',
  async () => {
    hub = new PrimaryHub({ logger: createLogger('silent') });
    const feeds: RedisChangeFeed[] = [];
    try {
      const reloaded: ChangeTopic[][] = [];
      const feedsOfWorkers: IpcChangeFeed[] = [];
      for (let id = 1; id <= 2; id += 1) {
        const pair = ipcPortPair();
        hub.attach(id, pair.primary);
        const link = new IpcLink(pair.worker);
        const base = await RedisChangeFeed.connect(redisUrl!);
        feeds.push(base);
        const feed = new IpcChangeFeed(link, { base });
        const list: ChangeTopic[] = [];
        feed.subscribe(async (topic) => {
          await delay(30);
          list.push(topic);
        });
        reloaded.push(list);
        feedsOfWorkers.push(feed);
        workers.push({ id, pair, link, feed, reloaded: list });
        await link.call('join', {}, 1_000);
      }
      const elsewhere = await RedisChangeFeed.connect(redisUrl!);
      feeds.push(elsewhere);
      const heardElsewhere: ChangeTopic[] = [];
      elsewhere.subscribe((topic) => void heardElsewhere.push(topic));

      await feedsOfWorkers[0]!.publish('groups');
      expect(reloaded[0]).toContain('groups');
      expect(reloaded[1]).toContain('groups');
      for (let waited = 0; !heardElsewhere.includes('groups') && waited < 2_000; waited += 20)
        await delay(20);
      expect(heardElsewhere).toContain('groups');
    } finally {
      for (const feed of feeds) await feed.close();
    }
  },
);
