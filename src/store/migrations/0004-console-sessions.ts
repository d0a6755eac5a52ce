import type { Kysely, Migration } from 'kysely';

/**
 * Web console sessions (admin-api section 8), and the indexes the console's charts and log filters
 * read usage records by: a time window, optionally of one channel.
 */
export const consoleSessionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sessions')
      // SHA-256 of the token in the `gw_session` cookie: a stolen table holds no usable session.
      .addColumn('id', 'text', (c) => c.primaryKey())
      // null: the root admin, who has no row in `users`; a user's sessions go with the user.
      .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
      // Root sessions only: which admin token signed in, so replacing the token ends them.
      .addColumn('root_token', 'text')
      .addColumn('csrf_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

    await db.schema.createIndex('usage_logs_created_at').on('usage_logs').column('created_at').execute();
    await db.schema
      .createIndex('usage_logs_channel_id')
      .on('usage_logs')
      .columns(['channel_id', 'created_at'])
      .execute();
  },
};
