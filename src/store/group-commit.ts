import type SqliteDatabase from 'better-sqlite3';
import { BusyRetries, isBusyError } from './sqlite-busy-retry.js';

/** What a group keeps in memory while its transaction runs, written just before it commits. */
export interface GroupWrites {
  begin(): void;
  write(): void;
}

interface Entry {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes submitted while the event loop handles one round of I/O run together, in submission
 * order, in one transaction on the next turn: each stays atomic (nothing else writes in between),
 * and concurrent requests share one commit to the write-ahead log instead of one each.
 *
 * The transaction begins `immediate`, taking the write lock first, so with other processes writing
 * to the same file it either gets the lock or changes nothing. A group refused as busy (another
 * process held the lock past the busy timeout) is rolled back whole and tried again on a timer,
 * ahead of the writes submitted since, instead of failing its requests. While a transaction of
 * the query builder is open on the same connection, the group waits for it to end.
 */
export class GroupCommit {
  private queue: Entry[] = [];
  private retries: BusyRetries | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly applyAll: (entries: Entry[]) => unknown[];

  constructor(
    private readonly database: SqliteDatabase.Database,
    pending?: GroupWrites,
  ) {
    const transaction = database.transaction((entries: Entry[]) => {
      pending?.begin();
      const results = entries.map((entry) => entry.run());
      pending?.write();
      return results;
    });
    this.applyAll = (entries) => transaction.immediate(entries);
  }

  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0 && !this.retryTimer) setImmediate(() => this.flush());
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(): void {
    this.retryTimer = undefined;
    // A query-builder transaction on this connection is waiting between its statements: a group
    // begun now would nest inside it and vanish with it if it rolled back.
    if (this.database.inTransaction) {
      this.retryTimer = setTimeout(() => this.flush(), 1);
      return;
    }
    const entries = this.queue;
    this.queue = [];
    let results: unknown[];
    try {
      results = this.applyAll(entries);
    } catch (error) {
      const wait = isBusyError(error) ? (this.retries ??= new BusyRetries()).nextDelay() : undefined;
      if (wait !== undefined) {
        this.queue = entries.concat(this.queue);
        this.retryTimer = setTimeout(() => this.flush(), wait);
        return;
      }
      this.retries = undefined;
      for (const entry of entries) entry.reject(error);
      return;
    }
    this.retries = undefined;
    entries.forEach((entry, index) => entry.resolve(results[index]));
  }
}
