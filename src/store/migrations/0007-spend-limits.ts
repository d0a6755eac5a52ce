import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Spend limits (admin-api section 10): the `budgets` and `max_concurrency` of keys, users and
 * groups; the windows' counts; which windows each hold reserved in; and the outbox of event
 * webhooks (10.1).
 */
export function spendLimitsMigration(dialect: DialectName): Migration {
  const bool = dialect === 'postgres' ? 'boolean' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['api_keys', 'users', 'groups']) {
        await db.schema
          .alterTable(table)
          .addColumn('budgets', 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
        await db.schema.alterTable(table).addColumn('max_concurrency', 'integer').execute();
      }
      // The `balance.low` threshold (nano-USD), and whether the event was sent since the balance
      // last stood at or above it.
      await db.schema.alterTable('users').addColumn('low_balance_alert', 'bigint').execute();
      await db.schema
        .alterTable('users')
        .addColumn('low_balance_alerted', bool, (c) =>
          c.notNull().defaultTo(dialect === 'postgres' ? false : 0),
        )
        .execute();

      // One row per window of one budget (or one concurrency cap), keyed by whose it is, its period
      // and its models; the counts belong to the window starting at `window_start` (Unix seconds)
      // and are zeroed by the first reservation that finds that window past.
      await db.schema
        .createTable('budget_windows')
        .addColumn('window_key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('used_usd', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('used_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('used_requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('held_usd', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('held_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('held_requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
        .execute();

      // The windows a hold reserved in (a JSON array of their keys) and the tokens it reserved in
      // each, so a returned hold gives them back; null when it counts in none.
      await db.schema.alterTable('holds').addColumn('windows', 'text').execute();
      await db.schema.alterTable('holds').addColumn('budget_tokens', 'bigint').execute();

      // Events to deliver. The id is decided by what the event is about where it may happen once
      // only (a window's threshold), so a second instance deciding the same event inserts nothing.
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Unix milliseconds: when the next attempt is due, or until when an attempt in progress
        // has it (an instance that dies mid-attempt leaves it due again then).
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_status_code', 'integer')
        .execute();
      await db.schema
        .createIndex('webhook_events_due')
        .on('webhook_events')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_events_created')
        .on('webhook_events')
        .column('created_at')
        .execute();
    },
  };
}
