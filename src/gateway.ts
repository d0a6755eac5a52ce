import type { FastifyInstance } from 'fastify';
import { AdminAuthenticator } from './admin/admin-authenticator.js';
import { PrincipalCache } from './auth/principal-cache.js';
import type { Environment } from './config/environment.js';
import { LiveSettings } from './config/live-settings.js';
import { LocalChangeFeed } from './events/change-feed.js';
import { RedisChangeFeed } from './events/redis-change-feed.js';
import { buildApp } from './http/build-app.js';
import type { Logger } from './observability/logger.js';
import { RoutingCatalog } from './routing/routing-catalog.js';
import type { GatewayServices } from './services.js';
import { openStore } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { createRepositories } from './store/repositories.js';

export interface Gateway {
  app: FastifyInstance;
  services: GatewayServices;
  /** The admin token generated on this first start, to be shown once. */
  generatedAdminToken: string | undefined;
  close(): Promise<void>;
}

/** Opens the store, migrates it, loads the caches and builds the HTTP app (not yet listening). */
export async function createGateway(environment: Environment, logger: Logger): Promise<Gateway> {
  const store = openStore({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    postgresSchema: environment.databaseSchema,
  });
  try {
    await migrateToLatest(store);
    const repositories = createRepositories(store);
    const changes = environment.redisUrl ? await RedisChangeFeed.connect(environment.redisUrl) : new LocalChangeFeed();
    const settings = await LiveSettings.load({
      repository: repositories.settings,
      fromEnvironment: environment.settings,
      changes,
    });
    const catalog = await RoutingCatalog.load({ repositories, changes });
    const principals = new PrincipalCache(repositories, changes);
    const { authenticator, generatedToken } = await AdminAuthenticator.initialize({
      systemState: repositories.systemState,
      environmentToken: environment.adminToken,
    });
    const services: GatewayServices = {
      store,
      repositories,
      changes,
      settings,
      principals,
      catalog,
      adminAuth: authenticator,
    };
    const app = buildApp({
      services,
      onUnexpectedError: (error, request) =>
        logger.error({ err: error, requestId: request.id, url: request.url }, 'unexpected error'),
    });
    return {
      app,
      services,
      generatedAdminToken: generatedToken,
      async close() {
        await app.close();
        await changes.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
