import type { Logger } from '../observability/logger.js';
import type { NewUsageLog, UsageLogsRepository } from '../store/usage-logs-repository.js';

export interface UsageWriterOptions {
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Attempts at close before the remaining records are written to the log instead. */
  closeAttempts?: number;
}

/**
 * Usage records leave the hot path at once and reach the database in batches. A failed batch stays
 * at the head of the queue and is tried again, so a database hiccup delays records but loses none.
 */
export class UsageWriter {
  private queue: NewUsageLog[] = [];
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly maxBatch: number;
  private readonly closeAttempts: number;

  constructor(
    private readonly repository: UsageLogsRepository,
    private readonly logger: Logger,
    options: UsageWriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.closeAttempts = options.closeAttempts ?? 5;
    this.timer = setInterval(() => void this.flush().catch(() => undefined), options.flushIntervalMs ?? 200);
    this.timer.unref();
  }

  record(log: NewUsageLog): void {
    this.queue.push(log);
    if (this.queue.length >= this.maxBatch) void this.flush().catch(() => undefined);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Writes everything queued so far; rejects when the database refused a batch (it stays queued). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    this.flushing = this.writeQueued();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  /** Stops the timer and writes what is left; what the database never takes goes to the log. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (let attempt = 1; attempt <= this.closeAttempts && this.queue.length > 0; attempt += 1) {
      try {
        await this.flush();
      } catch (error) {
        this.logger.warn({ err: error, attempt, pending: this.queue.length }, 'usage log flush failed');
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    if (this.queue.length > 0) {
      this.logger.error({ records: this.queue }, 'usage records could not be stored');
      this.queue = [];
    }
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.maxBatch);
      try {
        await this.repository.insertMany(batch);
      } catch (error) {
        this.logger.warn({ err: error, pending: this.queue.length }, 'usage log batch failed; will retry');
        throw error;
      }
      this.queue.splice(0, batch.length);
    }
  }
}
