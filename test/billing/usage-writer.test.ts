import { afterEach, beforeEach, expect, test } from 'vitest';
import { UsageWriter } from '../../src/billing/usage-writer.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Store } from '../../src/store/database.js';
import { UsageLogsRepository, type NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { storeVariants } from '../helpers/test-stores.js';

const sqlite = storeVariants()[0]!;
let store: Store;
let repository: UsageLogsRepository;

beforeEach(async () => {
  store = await sqlite.open();
  repository = new UsageLogsRepository(store.db);
});
afterEach(async () => store.close());

const log = (requestId: string): NewUsageLog => ({
  requestId,
  createdAt: 1,
  userId: 1,
  keyId: 1,
  channelId: 1,
  model: 'm',
  endpoint: 'chat-completions',
  stream: false,
  statusCode: 200,
  promptTokens: 1,
  completionTokens: 1,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  cost: 1,
  latencyMs: 1,
  firstByteMs: null,
  error: null,
});

test('records reach the database in batches, in order', async () => {
  const writer = new UsageWriter(repository, createLogger('silent'), {
    flushIntervalMs: 10_000,
    maxBatch: 3,
  });
  for (let index = 0; index < 7; index += 1) writer.record(log(`r${index}`));
  await writer.close();
  const stored = await repository.list({ limit: 100, offset: 0 });
  expect(stored.map((record) => record.requestId)).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0']);
});

test('a failed batch is kept and written on the next attempt', async () => {
  let failures = 2;
  const flaky = {
    insertMany: async (logs: readonly NewUsageLog[]) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database unavailable');
      }
      return repository.insertMany(logs);
    },
  } as UsageLogsRepository;
  const writer = new UsageWriter(flaky, createLogger('silent'), { flushIntervalMs: 10_000 });
  writer.record(log('a'));
  writer.record(log('b'));
  await expect(writer.flush()).rejects.toThrow('database unavailable');
  expect(writer.pending).toBe(2);
  await writer.close();
  expect(writer.pending).toBe(0);
  expect((await repository.list({ limit: 10, offset: 0 })).map((record) => record.requestId)).toEqual([
    'b',
    'a',
  ]);
});

test('the timer flushes without being asked', async () => {
  const writer = new UsageWriter(repository, createLogger('silent'), { flushIntervalMs: 20 });
  writer.record(log('timed'));
  await new Promise((resolve) => setTimeout(resolve, 120));
  expect((await repository.list({ limit: 10, offset: 0 })).map((record) => record.requestId)).toEqual([
    'timed',
  ]);
  await writer.close();
});
