import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Guardrails (admin-api section 12): checks of a request's text before anything is charged, a
 * regular expression or a webhook, that block the request or log it.
 */
export function guardrailsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('guardrails')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('pattern', 'text')
        .addColumn('url', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('fail', 'text', (c) => c.notNull())
        .addColumn('timeout_ms', 'integer', (c) => c.notNull())
        // JSON array of group names; null: every group.
        .addColumn('groups', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
