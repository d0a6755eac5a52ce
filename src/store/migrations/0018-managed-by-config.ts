import type { Kysely, Migration } from 'kysely';

/** The tables a configuration file may declare entities of (admin-api section 13). */
export const MANAGED_TABLES = [
  'channels',
  'prices',
  'groups',
  'model_metadata',
  'virtual_models',
  'guardrails',
  'settings',
] as const;

/**
 * Who owns each entity a configuration file may declare: `config` (the file; the API may not
 * change it) or `api` (made through the API or the console, as every entity was until now).
 */
export const managedByConfigMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of MANAGED_TABLES)
      await db.schema
        .alterTable(table)
        .addColumn('managed', 'text', (c) => c.notNull().defaultTo('api'))
        .execute();
  },
};
