import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The stored bodies of one request (admin-api section 12), by its usage record's request id. */
export interface LoggedBody {
  requestId: string;
  /** Unix seconds. */
  createdAt: number;
  requestBody: string | null;
  responseBody: string | null;
  /** A body was cut at `body_log_max_bytes`. */
  truncated: boolean;
}

/**
 * Reads of `usage_log_bodies`. Bodies are written by the money ledgers, in the batches that move
 * usage records (see `MoneyLedger.storeRecords`), and pruned by the retention job.
 */
export class UsageLogBodiesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(requestId: string): Promise<LoggedBody | undefined> {
    const row = await this.db
      .selectFrom('usage_log_bodies')
      .selectAll()
      .where('request_id', '=', requestId)
      .executeTakeFirst();
    return (
      row && {
        requestId: row.request_id,
        createdAt: Number(row.created_at),
        requestBody: row.request_body,
        responseBody: row.response_body,
        truncated: Boolean(row.truncated),
      }
    );
  }
}
