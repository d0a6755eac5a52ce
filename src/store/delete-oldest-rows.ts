import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The tables retention prunes (admin-api section 12), each with the key its rows are deleted by. */
const RETAINED_KEYS = { usage_logs: 'id', usage_log_bodies: 'request_id' } as const;

/**
 * Deletes at most `limit` rows of `table` created before `before` (Unix seconds), oldest first, in
 * one short statement that the table's `created_at` index makes cheap however many rows are old:
 * the rows are found by the index and deleted by their key. Resolves to how many went.
 */
export async function deleteOldestRows(
  db: Kysely<Database>,
  table: keyof typeof RETAINED_KEYS,
  options: { before: number; limit: number },
): Promise<number> {
  const key = sql.ref(RETAINED_KEYS[table]);
  const result = await sql`delete from ${sql.table(table)} where ${key} in (
      select ${key} from ${sql.table(table)} where created_at < ${options.before}
      order by created_at limit ${options.limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
