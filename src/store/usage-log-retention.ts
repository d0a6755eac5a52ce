import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Deletes at most `limit` usage records created before `before` (Unix seconds), oldest first, in
 * one short statement that the `usage_logs_created_at` index makes cheap however many records are
 * old: the rows are found by the index and deleted by their primary key. Resolves to how many went.
 */
export async function deleteUsageLogsBefore(
  db: Kysely<Database>,
  options: { before: number; limit: number },
): Promise<number> {
  const result = await db
    .deleteFrom('usage_logs')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('usage_logs')
        .select('id')
        .where('created_at', '<', options.before)
        .orderBy('created_at')
        .limit(options.limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
