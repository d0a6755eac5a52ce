import { afterEach, beforeEach, expect, test } from 'vitest';
import { LocalChangeFeed } from '../../src/events/change-feed.js';
import { ChannelHealth } from '../../src/routing/channel-health.js';
import type { ChannelRecord } from '../../src/store/channels-repository.js';
import type { Store } from '../../src/store/database.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { storeVariants } from '../helpers/test-stores.js';

let store: Store;
let repositories: Repositories;
let channel: ChannelRecord;
let health: ChannelHealth;
let probeAnswers: boolean[];
const published: string[] = [];

beforeEach(async () => {
  store = await storeVariants()[0]!.open();
  repositories = createRepositories(store);
  channel = await repositories.channels.create({
    name: 'c',
    type: 'openai',
    baseUrl: null,
    keys: ['k'],
    models: ['m'],
    modelMapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    status: 'enabled',
  });
  const changes = new LocalChangeFeed();
  changes.subscribe((topic) => void published.push(topic));
  probeAnswers = [];
  health = new ChannelHealth({
    repository: repositories.channels,
    changes,
    failureThreshold: () => 3,
    probeIntervalSeconds: () => 0.02,
    probe: async () => probeAnswers.shift() ?? false,
  });
});
afterEach(async () => {
  health.close();
  await store.close();
});

const statusOf = async () => (await repositories.channels.find(channel.id))?.status;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('consecutive failures disable the channel; a success in between resets the count', async () => {
  await health.recordFailure(channel);
  await health.recordFailure(channel);
  health.recordSuccess(channel.id);
  await health.recordFailure(channel);
  await health.recordFailure(channel);
  expect(await statusOf()).toBe('enabled');
  await health.recordFailure(channel);
  expect(await statusOf()).toBe('auto_disabled');
  expect(published).toContain('channels');
});

test('an auto-disabled channel is probed until it answers, then enabled again', async () => {
  probeAnswers = [false, false, true];
  for (let index = 0; index < 3; index += 1) await health.recordFailure(channel);
  expect(await statusOf()).toBe('auto_disabled');
  for (let waited = 0; waited < 2000 && (await statusOf()) !== 'enabled'; waited += 20) await sleep(20);
  expect(await statusOf()).toBe('enabled');
  expect(probeAnswers).toEqual([]);
});

test('an admin who disables the channel meanwhile stops the probing and keeps the status', async () => {
  probeAnswers = [true];
  for (let index = 0; index < 3; index += 1) await health.recordFailure(channel);
  await repositories.channels.update(channel.id, { status: 'disabled' });
  await sleep(100);
  expect(await statusOf()).toBe('disabled');
  expect(probeAnswers).toEqual([true]);
});
