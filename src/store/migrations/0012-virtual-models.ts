import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Virtual models (admin-api section 11.2): a public name served by one of several target models,
 * with the strategy that orders them, the failures that move to the next, and whether prompt-cache
 * affinity applies.
 */
export function virtualModelsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('virtual_models')
        .addColumn('name', 'text', (c) => c.primaryKey())
        // JSON array of {model, priority, weight}.
        .addColumn('targets', 'text', (c) => c.notNull())
        .addColumn('strategy', 'text', (c) => c.notNull())
        // JSON array of failure kinds.
        .addColumn('fallback_on', 'text', (c) => c.notNull())
        .addColumn('sticky', dialect === 'postgres' ? 'boolean' : 'integer', (c) => c.notNull())
        .execute();
    },
  };
}
