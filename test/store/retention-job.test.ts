import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Logger } from '../../src/observability/logger.js';
import type { Store } from '../../src/store/database.js';
import { JobLeasesRepository } from '../../src/store/job-leases-repository.js';
import { RetentionJob, type RetainedTable } from '../../src/store/retention-job.js';
import { deleteOldestRows } from '../../src/store/delete-oldest-rows.js';
import { storeVariants } from '../helpers/test-stores.js';
import { usageRecord } from '../helpers/usage-record.js';

/** Log retention (admin-api section 12): old records go in bounded batches, by one process at a time. */
const DAY_S = 86_400;
const NOW_MS = Date.UTC(2026, 5, 1);
const silent = { warn: () => undefined } as unknown as Logger;

describe.each(storeVariants())('log retention on $name', (variant) => {
  let store: Store;
  beforeEach(async () => {
    store = await variant.open();
  });
  afterEach(async () => store.close());

  async function recordsAged(days: readonly number[]): Promise<void> {
    await store.db
      .insertInto('usage_logs')
      .values(
        days.map((age, index) => {
          const { requestId, createdAt: _, ...record } = usageRecord({ requestId: `r-${age}-${index}` });
          return {
            request_id: requestId,
            created_at: NOW_MS / 1000 - age * DAY_S,
            user_id: record.userId,
            key_id: record.keyId,
            channel_id: record.channelId,
            model: record.model,
            endpoint: record.endpoint,
            stream: store.dialect === 'postgres' ? false : 0,
            status_code: 200,
            prompt_tokens: 1,
            completion_tokens: 1,
            cached_tokens: 0,
            cache_write_tokens: 0,
            reasoning_tokens: 0,
            cost: 1,
            latency_ms: 1,
            first_byte_ms: 1,
            error: null,
          };
        }),
      )
      .execute();
  }

  const remainingAges = async () =>
    (await store.db.selectFrom('usage_logs').select('created_at').orderBy('created_at').execute()).map(
      (row) => Math.round((NOW_MS / 1000 - Number(row.created_at)) / DAY_S),
    );

  function job(days: () => number, options: { batchSize?: number; owner?: JobLeasesRepository } = {}) {
    const batches: { deleted: number; caughtUp: boolean }[] = [];
    const table: RetainedTable = {
      name: 'usage_logs',
      retentionDays: days,
      deleteBefore: (before, limit) => deleteOldestRows(store.db, 'usage_logs', { before, limit }),
    };
    const retention = new RetentionJob({
      tables: [table],
      leases: options.owner ?? new JobLeasesRepository(store.db, () => NOW_MS),
      logger: silent,
      now: () => NOW_MS,
      batchSize: options.batchSize ?? 2,
      pauseMs: 0,
      onBatch: (_table, deleted, caughtUp) => batches.push({ deleted, caughtUp }),
    });
    return { retention, batches };
  }

  test('records older than the retention go, in batches no larger than the batch size; newer ones stay', async () => {
    await recordsAged([40, 35, 31, 31, 30.5, 29, 1, 0]);
    const { retention, batches } = job(() => 30);
    await retention.run();
    expect(await remainingAges()).toEqual([29, 1, 0]);
    expect(batches).toEqual([
      { deleted: 2, caughtUp: false },
      { deleted: 2, caughtUp: false },
      { deleted: 1, caughtUp: true },
    ]);
  });

  test('0 keeps records forever, and a changed setting applies on the next run', async () => {
    await recordsAged([400, 40]);
    let days = 0;
    const { retention, batches } = job(() => days);
    await retention.run();
    expect(await remainingAges()).toEqual([400, 40]);
    expect(batches).toEqual([]);
    days = 100;
    await retention.run();
    expect(await remainingAges()).toEqual([40]);
  });

  test('one process at a time: a lease held by another stops a run until it expires', async () => {
    await recordsAged([40, 40]);
    let now = NOW_MS;
    const leases = new JobLeasesRepository(store.db, () => now);
    expect(await leases.claim('retention', 'other-process', 60_000)).toBe(true);
    const { retention } = job(() => 30, { owner: leases });
    await retention.run();
    expect(await remainingAges()).toEqual([40, 40]);
    now += 60_001;
    await retention.run();
    expect(await remainingAges()).toEqual([]);
    // It holds the lease now: the other process cannot take it while it is renewed.
    expect(await leases.claim('retention', 'other-process', 60_000)).toBe(false);
    await retention.stop();
    expect(await leases.claim('retention', 'other-process', 60_000)).toBe(true);
  });
});
