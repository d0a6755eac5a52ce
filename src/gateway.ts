import type { FastifyInstance } from 'fastify';
import { AdminAuthenticator } from './admin/admin-authenticator.js';
import { PrincipalCache } from './auth/principal-cache.js';
import type { Environment } from './config/environment.js';
import { LiveSettings } from './config/live-settings.js';
import { LocalChangeFeed } from './events/change-feed.js';
import { RedisChangeFeed } from './events/redis-change-feed.js';
import { RedisHealthSync } from './events/redis-health-sync.js';
import { buildApp } from './http/build-app.js';
import { BalanceLedger } from './billing/balance-ledger.js';
import { HoldKeeper } from './billing/hold-keeper.js';
import { MemoryRateLimiter } from './limits/memory-rate-limiter.js';
import { RedisRateLimiter } from './limits/redis-rate-limiter.js';
import { probeChannel } from './providers/probe-channel.js';
import { configureUpstreamDispatcher, upstreamDispatcher } from './providers/upstream-dispatcher.js';
import { RelayTracker } from './relay/relay-tracker.js';
import { ChannelHealthService } from './routing/channel-health-service.js';
import { LocalHealthSync } from './routing/health-sync.js';
import { shutDown } from './shut-down.js';
import type { Logger } from './observability/logger.js';
import { RoutingCatalog } from './routing/routing-catalog.js';
import type { GatewayServices } from './services.js';
import { openStore } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { createRepositories } from './store/repositories.js';
import { openMoneyLedger } from './store/money-ledger.js';
import { LeasesRepository } from './store/leases-repository.js';

export interface Gateway {
  app: FastifyInstance;
  services: GatewayServices;
  /** The admin token generated on this first start, to be shown once. */
  generatedAdminToken: string | undefined;
  /** Stops accepting, lets open requests finish within the grace period, then writes what is pending. */
  close(graceMs?: number): Promise<void>;
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
    const changes = environment.redisUrl
      ? await RedisChangeFeed.connect(environment.redisUrl, (error, context) =>
          logger.warn({ err: error, context }, 'change feed trouble'),
        )
      : new LocalChangeFeed();
    const settings = await LiveSettings.load({
      repository: repositories.settings,
      fromEnvironment: environment.settings,
      changes,
    });
    followConnectTimeout(settings);
    const catalog = await RoutingCatalog.load({ repositories, changes });
    const principals = new PrincipalCache(repositories, changes);
    const { authenticator, generatedToken } = await AdminAuthenticator.initialize({
      systemState: repositories.systemState,
      environmentToken: environment.adminToken,
    });
    const tracker = new RelayTracker();
    const moneyLedger = openMoneyLedger(store);
    const holdKeeper = await HoldKeeper.start({
      ledger: moneyLedger,
      leases: new LeasesRepository(store.db, store.dialect),
      logger,
      ttlMs: environment.leaseTtlMs,
      onReturned: async () => {
        await changes.publish('keys');
      },
      onLeaseLost: () => tracker.abortAll('the gateway lost its hold lease'),
    });
    const rateLimiter = environment.redisUrl
      ? new RedisRateLimiter(environment.redisUrl)
      : new MemoryRateLimiter();
    const health = new ChannelHealthService({
      repository: repositories.channels,
      changes,
      settings: () => settings.get(),
      probe: async (channel, { key }) => (await probeChannel(channel, { timeoutMs: 10_000, key })).ok,
      logger,
      sync: environment.redisUrl
        ? await RedisHealthSync.connect(environment.redisUrl, { logger })
        : new LocalHealthSync(),
    });
    health.watch(await repositories.channels.all());
    const services: GatewayServices = {
      store,
      repositories,
      changes,
      settings,
      principals,
      catalog,
      adminAuth: authenticator,
      ledger: new BalanceLedger(moneyLedger, holdKeeper.owner, {
        onStoreError: (error) => logger.warn({ err: error }, 'usage records not stored yet; will retry'),
      }),
      holdKeeper,
      rateLimiter,
      health,
      keyRotation: health.keys,
      dispatcher: upstreamDispatcher,
      tracker,
      logger,
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
      close: (graceMs = environment.shutdownGraceMs) => shutDown(services, app, graceMs),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** `connect_timeout_s` lives in the upstream dispatcher: a change replaces it (requests in flight finish on the old one). */
function followConnectTimeout(settings: LiveSettings): void {
  let seconds = settings.get().connect_timeout_s;
  configureUpstreamDispatcher({ connectTimeoutMs: seconds * 1000 });
  settings.onChange((current) => {
    if (current.connect_timeout_s === seconds) return;
    seconds = current.connect_timeout_s;
    configureUpstreamDispatcher({ connectTimeoutMs: seconds * 1000 });
  });
}
