import type SqliteDatabase from 'better-sqlite3';

interface Entry {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes submitted while the event loop handles one round of I/O run together, in submission
 * order, in one transaction on the next turn: each stays atomic (nothing else writes in between),
 * and concurrent requests share one commit to the write-ahead log instead of one each.
 */
export class GroupCommit {
  private queue: Entry[] = [];
  private readonly applyAll: (entries: Entry[]) => unknown[];

  constructor(database: SqliteDatabase.Database) {
    this.applyAll = database.transaction((entries: Entry[]) => entries.map((entry) => entry.run()));
  }

  submit<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ run, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(): void {
    const entries = this.queue;
    this.queue = [];
    let results: unknown[];
    try {
      results = this.applyAll(entries);
    } catch (error) {
      for (const entry of entries) entry.reject(error);
      return;
    }
    entries.forEach((entry, index) => entry.resolve(results[index]));
  }
}
