import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Sign-up and codes (admin-api section 15): invite codes, redemption codes, and usernames unique
 * whatever their case.
 *
 * Codes are stored as SHA-256 hashes beside a masked hint; a code is used once `used_at` is set.
 * `used_by` names the user and becomes null if that user is deleted, while `used_at` stays: a code
 * never becomes usable again.
 *
 * Usernames were unique only as written, so a database may already hold names that differ only in
 * case ('Alice' and 'alice'). Those users keep their names and can still sign in: the oldest of each
 * such set stays in the case-insensitive index, the others are flagged `username_case_duplicate`
 * and left out of it. Every name created or renamed from now on is in the index.
 */
export function signUpAndCodesMigration(dialect: DialectName): Migration {
  const id = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('users')
        .addColumn('username_case_duplicate', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`
        update users set username_case_duplicate = 1
        where exists (
          select 1 from users older
          where lower(older.username) = lower(users.username) and older.id < users.id
        )`.execute(db);
      await db.schema
        .createIndex('users_username_case_insensitive')
        .on('users')
        .unique()
        .expression(sql`lower(username)`)
        .where(sql.ref('username_case_duplicate'), '=', 0)
        .execute();

      await db.schema
        .createTable('invite_codes')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('used_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .execute();

      await db.schema
        .createTable('redemption_codes')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_hint', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('disabled_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addColumn('used_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .execute();
    },
  };
}
