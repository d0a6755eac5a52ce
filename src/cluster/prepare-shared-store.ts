import { AdminAuthenticator } from '../admin/admin-authenticator.js';
import type { Environment } from '../config/environment.js';
import { openStore, type DialectName } from '../store/database.js';
import { KeyValueRepository } from '../store/key-value-repository.js';
import { migrateToLatest } from '../store/migrate.js';
import { applyConfigAtStart, reapplyConfigFile } from '../config-file/apply-config-at-start.js';
import type { ChangeTopic } from '../events/change-feed.js';
import type { Logger } from '../observability/logger.js';

export interface SharedStore {
  dialect: DialectName;
  /** The admin token generated on this first start, to be shown once. */
  generatedAdminToken: string | undefined;
  /** What the configuration file changed at this start, for the instances already serving. */
  configTopics: ChangeTopic[];
  /** `SIGHUP`: the configuration file applied again, once for all the workers, who hear through `announce`. */
  reapplyConfigFile(announce: (topics: ChangeTopic[]) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/**
 * What the primary does once for all its workers, before it forks them: migrates the database
 * (so workers never race to) and applies the configuration file, generates the admin token on the first start (so it is printed
 * once, not once per worker), and, on SQLite, keeps the store open for the one process that
 * checkpoints the write-ahead log.
 */
export async function prepareSharedStore(environment: Environment, logger: Logger): Promise<SharedStore> {
  if (!environment.databaseUrl && environment.dataDir === ':memory:')
    throw new Error(
      'GATEWAY_WORKERS above 1 needs a database the workers share: a data folder or DATABASE_URL',
    );
  const store = openStore({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    postgresSchema: environment.databaseSchema,
  });
  try {
    await migrateToLatest(store);
    const configTopics = environment.configFile
      ? await applyConfigAtStart(store, environment.configFile, logger)
      : [];
    const { generatedToken } = await AdminAuthenticator.initialize({
      systemState: new KeyValueRepository(store.db, 'system_state'),
      environmentToken: environment.adminToken,
    });
    if (!store.sqlite) await store.close();
    const open = () =>
      openStore({
        databaseUrl: environment.databaseUrl,
        dataDir: environment.dataDir,
        postgresSchema: environment.databaseSchema,
      });
    return {
      dialect: store.dialect,
      generatedAdminToken: generatedToken,
      configTopics,
      async reapplyConfigFile(announce) {
        // On SQLite the store stays open; a PostgreSQL pool is opened for the apply alone.
        const applyStore = store.sqlite ? store : open();
        try {
          await reapplyConfigFile(applyStore, environment.configFile, logger, announce);
        } finally {
          if (applyStore !== store) await applyStore.close();
        }
      },
      close: async () => {
        if (store.sqlite) await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
