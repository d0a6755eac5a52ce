import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Bodies on request (admin-api section 12): `log_bodies` on keys (null follows the group) and on
 * groups, and the table of the stored bodies, one row per request, apart from the usage records so
 * those stay small and the two can be kept for different times.
 */
export function loggedBodiesMigration(dialect: DialectName): Migration {
  const bool = dialect === 'postgres' ? 'boolean' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('log_bodies', bool).execute();
      await db.schema
        .alterTable('groups')
        .addColumn('log_bodies', bool, (c) => c.notNull().defaultTo(dialect === 'postgres' ? false : 0))
        .execute();
      await db.schema
        .createTable('usage_log_bodies')
        .addColumn('request_id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('request_body', 'text')
        .addColumn('response_body', 'text')
        .addColumn('truncated', bool, (c) => c.notNull())
        .execute();
      // Retention deletes the oldest first, a batch at a time.
      await db.schema
        .createIndex('usage_log_bodies_created_at')
        .on('usage_log_bodies')
        .column('created_at')
        .execute();
    },
  };
}
