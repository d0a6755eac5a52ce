import { statSync } from 'node:fs';
import path from 'node:path';
import { loadConsolePage } from '../console-page.js';

const RECHECK_MS = 1000;

/**
 * The console's entry page, read again when a new build replaced it: the old page names hashed
 * files the build removed. The file's time is looked at no more than once a second.
 */
export class ConsolePageSource {
  private page: string;
  private modifiedMs: number | undefined;
  private checkedAt = 0;

  constructor(private readonly directory: string) {
    this.modifiedMs = this.readModifiedMs();
    this.page = loadConsolePage(directory);
  }

  current(now: number = Date.now()): string {
    if (now - this.checkedAt < RECHECK_MS) return this.page;
    this.checkedAt = now;
    const modifiedMs = this.readModifiedMs();
    if (modifiedMs !== this.modifiedMs) {
      this.modifiedMs = modifiedMs;
      this.page = loadConsolePage(this.directory);
    }
    return this.page;
  }

  private readModifiedMs(): number | undefined {
    return statSync(path.join(this.directory, 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
  }
}
