import type { Kysely, Migration } from 'kysely';

/** The channel `config` field (admin-api section 5): the upstream type's own settings, as JSON. */
export const channelConfigMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('channels')
      .addColumn('config', 'text', (column) => column.notNull().defaultTo('{}'))
      .execute();
  },
};
