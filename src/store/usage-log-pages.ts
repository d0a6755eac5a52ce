import type { UsageLogConditions } from './usage-log-conditions.js';
import type { UsageLogCursor, UsageLogRecord, UsageLogsRepository } from './usage-logs-repository.js';

/** Rows per query: big enough that a query's round trip is small beside its rows, small enough to hold. */
export const USAGE_LOG_PAGE_SIZE = 1000;

/**
 * Every matching usage record, oldest first by (created_at, id), one page of at most `pageSize`
 * records at a time (admin-api section 12, Export). Each page is a query of its own that starts
 * after the last record of the one before, so only one page is held at a time, no transaction stays
 * open between pages (SQLite checkpoints and PostgreSQL vacuum carry on), and a consumer that stops
 * pulling stops the reading. Records written meanwhile are included when they sort after the cursor.
 */
export async function* usageLogPages(options: {
  usageLogs: Pick<UsageLogsRepository, 'listAfter'>;
  conditions: UsageLogConditions;
  pageSize?: number;
}): AsyncGenerator<UsageLogRecord[], void, undefined> {
  const limit = options.pageSize ?? USAGE_LOG_PAGE_SIZE;
  let after: UsageLogCursor | undefined;
  for (;;) {
    const page = await options.usageLogs.listAfter({ conditions: options.conditions, after, limit });
    const last = page.at(-1);
    if (last === undefined) return;
    yield page;
    if (page.length < limit) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
