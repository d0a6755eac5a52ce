import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Durable reservations (admin-api section 3, rule 6): a hold row lives exactly as long as the money
 * it took is out of the balance, and names the process life (lease owner) that may settle it.
 */
export function holdsAndLeasesMigration(dialect: DialectName): Migration {
  const bool = dialect === 'postgres' ? 'boolean' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('holds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('key_id', 'bigint', (c) => c.notNull())
        .addColumn('key_capped', bool, (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('stream', bool, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // The usage record, filled in by the settlement (in its transaction) until the record is
        // moved to `usage_logs` with others in one batch.
        .addColumn('status_code', 'integer')
        .addColumn('channel_id', 'bigint')
        .addColumn('prompt_tokens', 'bigint')
        .addColumn('completion_tokens', 'bigint')
        .addColumn('cached_tokens', 'bigint')
        .addColumn('cache_write_tokens', 'bigint')
        .addColumn('reasoning_tokens', 'bigint')
        .addColumn('cost', 'bigint')
        .addColumn('latency_ms', 'integer')
        .addColumn('first_byte_ms', 'integer')
        .addColumn('error', 'text')
        .addColumn('settled_at', 'bigint')
        // Every request writes and deletes one row, so the table is one B-tree keyed by the
        // request id: no rowid table beside it, and no index on the owner (the table only ever
        // holds requests in flight, so a scan for a dead owner's rows is short).
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();

      await db.schema
        .createTable('leases')
        .addColumn('owner', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
