import type { Kysely, Migration } from 'kysely';

/**
 * Leases of background jobs that one process of all those sharing the database runs at a time
 * (log retention, admin-api section 12): the holder and until when, in Unix milliseconds.
 */
export const jobLeasesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
