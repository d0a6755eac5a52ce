import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Money put into a user's balance (admin-api section 15), one row per credit: an admin's top-up,
 * the sign-up balance, a redemption code, a paid order. `reference` names what the credit came
 * from (the code's or the order's id), so a user's history explains every rise of the balance.
 */
export function balanceCreditsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('balance_credits')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reference', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('balance_credits_by_user')
        .on('balance_credits')
        .columns(['user_id', 'id'])
        .execute();
    },
  };
}
