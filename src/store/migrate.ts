import { sql, type Kysely, type Migration, type Transaction } from 'kysely';
import type { Store } from './database.js';
import { initialMigration } from './migrations/0001-initial.js';
import { holdsAndLeasesMigration } from './migrations/0002-holds-and-leases.js';
import { channelConfigMigration } from './migrations/0003-channel-config.js';
import { consoleSessionsMigration } from './migrations/0004-console-sessions.js';
import { moneyMovesFunctionMigration } from './migrations/0005-money-moves-function.js';
import { moneyMovesPerUserMigration } from './migrations/0006-money-moves-per-user.js';
import { spendLimitsMigration } from './migrations/0007-spend-limits.js';
import { budgetMoneyMovesMigration } from './migrations/0008-budget-money-moves.js';
import { newerWindowsMigration } from './migrations/0009-newer-windows.js';
import { windowsPerBatchMigration } from './migrations/0010-windows-per-batch.js';
import { modelMetadataMigration } from './migrations/0011-model-metadata.js';
import { virtualModelsMigration } from './migrations/0012-virtual-models.js';
import { requestedModelMigration } from './migrations/0013-requested-model.js';
import { servedModelMigration } from './migrations/0014-served-model.js';
import { jobLeasesMigration } from './migrations/0015-job-leases.js';
import { guardrailsMigration } from './migrations/0016-guardrails.js';
import { loggedBodiesMigration } from './migrations/0017-logged-bodies.js';
import { managedByConfigMigration } from './migrations/0018-managed-by-config.js';
import { audioPricesMigration } from './migrations/0019-audio-prices.js';
import { audioUsageMigration } from './migrations/0020-audio-usage.js';
import { balanceCreditsMigration } from './migrations/0021-balance-credits.js';
import { signUpAndCodesMigration } from './migrations/0022-sign-up-and-codes.js';
import { ordersMigration } from './migrations/0023-orders.js';

/** Versioned migrations, applied in name order at start. Append new ones; never edit old ones. */
function migrationsFor(store: Store): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(store.dialect),
    '0002-holds-and-leases': holdsAndLeasesMigration(store.dialect),
    '0003-channel-config': channelConfigMigration,
    '0004-console-sessions': consoleSessionsMigration,
    '0005-money-moves-function': moneyMovesFunctionMigration(store.dialect),
    '0006-money-moves-per-user': moneyMovesPerUserMigration(store.dialect),
    '0007-spend-limits': spendLimitsMigration(store.dialect),
    '0008-budget-money-moves': budgetMoneyMovesMigration(store.dialect),
    '0009-newer-windows': newerWindowsMigration(store.dialect),
    '0010-windows-per-batch': windowsPerBatchMigration(store.dialect),
    '0011-model-metadata': modelMetadataMigration,
    '0012-virtual-models': virtualModelsMigration(store.dialect),
    '0013-requested-model': requestedModelMigration(store.dialect),
    '0014-served-model': servedModelMigration(store.dialect),
    '0015-job-leases': jobLeasesMigration,
    '0016-guardrails': guardrailsMigration(store.dialect),
    '0017-logged-bodies': loggedBodiesMigration(store.dialect),
    '0018-managed-by-config': managedByConfigMigration,
    '0019-audio-prices': audioPricesMigration,
    '0020-audio-usage': audioUsageMigration(store.dialect),
    '0021-balance-credits': balanceCreditsMigration(store.dialect),
    '0022-sign-up-and-codes': signUpAndCodesMigration(store.dialect),
    '0023-orders': ordersMigration(store.dialect),
  };
}

/** Which migrations a database has had: the table and columns Kysely's migrator keeps, so databases it migrated carry on. */
const APPLIED_TABLE = 'kysely_migration';

interface Bookkeeping {
  kysely_migration: { name: string; timestamp: string };
}

/**
 * Applies the migrations the database lacks, in one transaction. Concurrent starts against one
 * PostgreSQL schema take turns on an advisory lock of that schema. Nothing here looks beyond the
 * gateway's own schema: a database shared with other applications (which may create or drop their
 * schemas at any moment) neither slows nor breaks a start.
 */
export async function migrateToLatest(store: Store): Promise<void> {
  const migrations = Object.entries(migrationsFor(store));
  const db = store.db as unknown as Kysely<Bookkeeping>;
  let running = '';
  try {
    await db.transaction().execute(async (trx) => {
      if (store.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtext('gateway migrations ' || coalesce(current_schema(), '')))`.execute(
          trx,
        );
      }
      const applied = await appliedMigrations(trx);
      const known = new Set(migrations.map(([name]) => name));
      const unknown = [...applied].filter((name) => !known.has(name));
      if (unknown.length > 0) {
        throw new Error(`the database has migrations this version does not know (${unknown.join(', ')})`);
      }
      for (const [name, migration] of migrations) {
        if (applied.has(name)) continue;
        running = name;
        await migration.up(trx);
        await trx.insertInto(APPLIED_TABLE).values({ name, timestamp: new Date().toISOString() }).execute();
      }
    });
  } catch (error) {
    const which = running ? ` ${running}` : '';
    throw new Error(`database migration${which} failed: ${String(error)}`, { cause: error });
  }
}

async function appliedMigrations(trx: Transaction<Bookkeeping>): Promise<Set<string>> {
  await trx.schema
    .createTable(APPLIED_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (column) => column.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (column) => column.notNull())
    .execute();
  const rows = await trx.selectFrom(APPLIED_TABLE).select('name').execute();
  return new Set(rows.map((row) => row.name));
}
