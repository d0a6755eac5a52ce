import { randomUUID } from 'node:crypto';
import type { Logger } from '../observability/logger.js';
import type { JobLeasesRepository } from './job-leases-repository.js';

/** What one table's retention needs: its setting, and how to delete a batch of what is older. */
export interface RetainedTable {
  /** The table's name, in metrics and logs. */
  name: string;
  /** Days its records are kept; 0 keeps them forever. Read before every run, so a change applies at once. */
  retentionDays(): number;
  /** Deletes at most `limit` records created before `before` (Unix seconds); how many went. */
  deleteBefore(before: number, limit: number): Promise<number>;
}

export interface RetentionJobOptions {
  tables: readonly RetainedTable[];
  leases: Pick<JobLeasesRepository, 'claim' | 'release'>;
  logger: Logger;
  /** Hears each batch deleted, for metrics. */
  onBatch?: (table: string, deleted: number, caughtUp: boolean) => void;
  /** Unix milliseconds. */
  now?: () => number;
  /** Records per statement. */
  batchSize?: number;
  /** The shortest pause between two batches, so requests' writes go first. */
  pauseMs?: number;
  /** How often a run starts. */
  intervalMs?: number;
}

const LEASE = 'retention';
const LEASE_TTL_MS = 60_000;
const DEFAULT_BATCH = 1_000;
const DEFAULT_PAUSE_MS = 10;
const DEFAULT_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Deletes records older than their table's retention (admin-api section 12) in the background:
 * a bounded batch per statement, each its own short transaction, followed by a pause at least as
 * long as the batch took, so a backlog of millions is worked off with at most half of the
 * database's time, without blocking requests or holding a lock for long.
 * Of all the processes sharing the database, the one holding the job's lease runs it; the lease is
 * renewed with each batch, and a process that dies lets it lapse within a minute.
 */
export class RetentionJob {
  private readonly owner = randomUUID();
  private readonly now: () => number;
  private readonly batchSize: number;
  private readonly pauseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: RetentionJobOptions) {
    this.now = options.now ?? Date.now;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH;
    this.pauseMs = options.pauseMs ?? DEFAULT_PAUSE_MS;
  }

  start(): void {
    const interval = this.options.intervalMs ?? DEFAULT_INTERVAL_MS;
    this.timer = setInterval(() => void this.run(), interval);
    this.timer.unref();
    void this.run();
  }

  /** One run over every table, unless one is going already; resolves when it ends. */
  run(): Promise<void> {
    this.running ??= this.runOnce()
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'log retention run failed; next run retries'),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Stops the timer and waits for a batch under way; the lease is let go. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.options.leases.release(LEASE, this.owner).catch(() => undefined);
  }

  private async runOnce(): Promise<void> {
    const tables = this.options.tables.filter((table) => table.retentionDays() > 0);
    if (tables.length === 0 || this.stopped) return;
    for (const table of tables) {
      for (;;) {
        if (this.stopped || !(await this.options.leases.claim(LEASE, this.owner, LEASE_TTL_MS))) return;
        const days = table.retentionDays();
        if (days <= 0) break;
        const before = Math.floor((this.now() - days * DAY_MS) / 1000);
        const started = performance.now();
        const deleted = await table.deleteBefore(before, this.batchSize);
        const took = performance.now() - started;
        const caughtUp = deleted < this.batchSize;
        this.options.onBatch?.(table.name, deleted, caughtUp);
        if (caughtUp) break;
        // At least as long as the batch took: a backlog takes at most half of the database's time.
        await new Promise((resolve) => setTimeout(resolve, Math.max(this.pauseMs, took)));
      }
    }
  }
}
