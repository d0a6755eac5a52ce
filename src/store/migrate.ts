import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Store } from './database.js';
import { initialMigration } from './migrations/0001-initial.js';
import { holdsAndLeasesMigration } from './migrations/0002-holds-and-leases.js';
import { channelConfigMigration } from './migrations/0003-channel-config.js';
import { consoleSessionsMigration } from './migrations/0004-console-sessions.js';

/** Versioned migrations, applied in name order at start. Append new ones; never edit old ones. */
function migrationsFor(store: Store): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(store.dialect),
    '0002-holds-and-leases': holdsAndLeasesMigration(store.dialect),
    '0003-channel-config': channelConfigMigration,
    '0004-console-sessions': consoleSessionsMigration,
  };
}

export async function migrateToLatest(store: Store): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(store) };
  // With a schema, the bookkeeping tables must be looked up there too, not in any schema.
  const migrator = new Migrator({
    db: store.db,
    provider,
    ...(store.schema && { migrationTableSchema: store.schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
