import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Online top-up (admin-api section 15): `orders`, one per payment started, and `order_events`, what
 * happened to each (Checkout Session created, webhooks received, the reconciler's checks, the credit).
 *
 * `seq` numbers orders as they were made, for lists newest first; `id` is the order's public,
 * unguessable name. An order outlives its user (`user_id` becomes null): it is the gateway's record of money taken.
 * `next_check_at` spaces out the reconciler's checks of an order whose payment is still open;
 * `problem` holds an order back from any credit until an admin has looked (a paid amount that
 * differs from the order's, say).
 */
export function ordersMigration(dialect: DialectName): Migration {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('orders')
        .addColumn('seq', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_ref', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('paid_at', 'bigint')
        .addColumn('next_check_at', 'bigint')
        .addColumn('problem', 'text')
        .execute();
      await db.schema
        .createIndex('orders_by_status_age')
        .on('orders')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema.createIndex('orders_by_user').on('orders').columns(['user_id', 'seq']).execute();
      await db.schema
        .createIndex('orders_by_provider_ref')
        .on('orders')
        .unique()
        .column('provider_ref')
        .execute();

      await db.schema
        .createTable('order_events')
        .addColumn('id', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('detail', 'text')
        .execute();
      await db.schema
        .createIndex('order_events_by_order')
        .on('order_events')
        .columns(['order_id', 'id'])
        .execute();
    },
  };
}
