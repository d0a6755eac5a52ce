import type { FastifyInstance } from 'fastify';
import { AdminAuthenticator } from './admin/admin-authenticator.js';
import { PrincipalCache } from './auth/principal-cache.js';
import type { Environment } from './config/environment.js';
import { LiveSettings } from './config/live-settings.js';
import type { IpcLink } from './cluster/ipc-link.js';
import { openSharedState } from './cluster/shared-state.js';
import { buildApp } from './http/build-app.js';
import { BalanceLedger } from './billing/balance-ledger.js';
import { WebhookDeliverer } from './events/webhooks/webhook-deliverer.js';
import { WebhookOutbox } from './events/webhooks/webhook-outbox.js';
import { HoldKeeper } from './billing/hold-keeper.js';
import { probeChannel } from './providers/probe-channel.js';
import { configureUpstreamDispatcher, upstreamDispatcher } from './providers/upstream-dispatcher.js';
import { RelayTracker } from './relay/relay-tracker.js';
import { ChannelHealthService } from './routing/channel-health-service.js';
import { shutDown } from './shut-down.js';
import type { Logger } from './observability/logger.js';
import { Telemetry } from './observability/telemetry.js';
import { RoutingCatalog } from './routing/routing-catalog.js';
import type { GatewayServices } from './services.js';
import { openStore } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { applyConfigAtStart, reapplyConfigFile } from './config-file/apply-config-at-start.js';
import { createRepositories } from './store/repositories.js';
import { openMoneyLedger } from './store/open-money-ledger.js';
import { LeasesRepository } from './store/leases-repository.js';
import { openRoutingMemory } from './routing/policy/routing-memory.js';
import { RetentionJob } from './store/retention-job.js';
import { GuardrailChecker } from './guardrails/guardrail-checker.js';
import { GuardrailSet } from './guardrails/guardrail-set.js';
import { GuardrailWebhooks } from './guardrails/guardrail-webhook.js';
import { JobLeasesRepository } from './store/job-leases-repository.js';
import { deleteOldestRows } from './store/delete-oldest-rows.js';
import type { Payments } from './payments/payments.js';
import { StripeClients } from './payments/stripe-clients.js';
import { TopupReconciler } from './payments/topup-reconciler.js';
import { attachRealtimeRelay, type RealtimeRelay } from './http/realtime/realtime-relay.js';

export interface Gateway {
  app: FastifyInstance;
  services: GatewayServices;
  /** `GET /v1/realtime` WebSocket sessions, on the app's own server (admin-api section 14). */
  realtime: RealtimeRelay;
  /** The admin token generated on this first start, to be shown once. */
  generatedAdminToken: string | undefined;
  /** Reads `GATEWAY_CONFIG_FILE` again and applies it (`SIGHUP`); an invalid file changes nothing. */
  reloadConfigFile(): Promise<void>;
  /** Stops accepting, lets open requests finish within the grace period, then writes what is pending. */
  close(graceMs?: number): Promise<void>;
}

export interface GatewayOptions {
  /** In a cluster worker: the channel to the primary, which holds what the workers share. */
  primary?: IpcLink;
  /** How often realtime sockets are pinged (30 s unless given); a socket silent through two is closed. */
  realtimeHeartbeatMs?: number;
}

/** A worker asks its primary, which gathers every worker's metrics (this one's too). */
const machineMetricsThrough = (primary: IpcLink) => () => primary.call('metrics', {}, 10_000);

/** Opens the store, migrates it, loads the caches and builds the HTTP app (not yet listening). */
export async function createGateway(
  environment: Environment,
  logger: Logger,
  options: GatewayOptions = {},
): Promise<Gateway> {
  const store = openStore({
    databaseUrl: environment.databaseUrl,
    dataDir: environment.dataDir,
    postgresSchema: environment.databaseSchema,
    // A cluster's primary checkpoints the SQLite file for all its workers.
    checkpointWal: options.primary === undefined,
  });
  try {
    await migrateToLatest(store);
    // A cluster's primary applies the file once for its workers.
    const configTopics =
      environment.configFile && !options.primary
        ? await applyConfigAtStart(store, environment.configFile, logger)
        : [];
    const repositories = createRepositories(store);
    const { changes, rateLimiter, healthSync, stickyStore, loginThrottle } = await openSharedState({
      redisUrl: environment.redisUrl,
      primary: options.primary,
      logger,
    });
    // Instances already serving reload what the file changed.
    for (const topic of configTopics) await changes.publish(topic);
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
    const health = new ChannelHealthService({
      repository: repositories.channels,
      changes,
      settings: () => settings.get(),
      probe: async (channel, { key }) => (await probeChannel(channel, { timeoutMs: 10_000, key })).ok,
      logger,
      sync: healthSync,
    });
    health.watch(await repositories.channels.all());
    const routing = openRoutingMemory({ sync: healthSync, stickyStore, logger });
    const ledger = new BalanceLedger(moneyLedger, holdKeeper.owner, {
      onStoreError: (error) => logger.warn({ err: error }, 'usage records not stored yet; will retry'),
      outbox: new WebhookOutbox(repositories.webhookEvents, logger),
      onBodyDropped: (count) => telemetry.metrics.bodiesDropped(count),
    });
    const telemetry = await Telemetry.open({
      environment: environment.observability,
      store,
      redisUrl: environment.redisUrl,
      isPriced: (model) => catalog.price(model) !== undefined,
      isVirtual: (model) => catalog.virtualModel(model) !== undefined,
      channels: () => catalog.channels(),
      health,
      usageWriterQueue: () => tracker.pendingCount + ledger.unstoredRecords,
      ...(options.primary && { machineMetrics: machineMetricsThrough(options.primary) }),
    });
    const webhooks = new WebhookDeliverer({
      events: repositories.webhookEvents,
      settings: () => settings.get(),
      logger,
    });
    webhooks.start();
    const guardrails = new GuardrailChecker({
      set: await GuardrailSet.load({ repository: repositories.guardrails, changes }),
      webhooks: new GuardrailWebhooks(),
      logger,
      recordBlock: (record) => tracker.track(repositories.usageLogs.insertMany([record])),
      onVerdict: (guardrail, verdict) => telemetry.metrics.guardrailVerdict(guardrail, verdict),
    });
    const retention = new RetentionJob({
      tables: [
        {
          name: 'usage_logs',
          retentionDays: () => settings.get().log_retention_days,
          deleteBefore: (before, limit) => deleteOldestRows(store.db, 'usage_logs', { before, limit }),
        },
        {
          name: 'usage_log_bodies',
          // Never longer than the records they belong to.
          retentionDays: () => {
            const { body_retention_days: bodies, log_retention_days: records } = settings.get();
            return records > 0 && (bodies === 0 || records < bodies) ? records : bodies;
          },
          deleteBefore: (before, limit) => deleteOldestRows(store.db, 'usage_log_bodies', { before, limit }),
        },
      ],
      leases: new JobLeasesRepository(store.db),
      logger,
      onBatch: (table, deleted, caughtUp) => telemetry.metrics.retentionBatch(table, deleted, caughtUp),
    });
    retention.start();
    const payments: Payments = {
      store,
      repositories,
      settings: () => settings.get(),
      stripe: new StripeClients(),
      balanceRaised: () => changes.publish('users'),
      logger,
    };
    const topupReconciler = new TopupReconciler({ payments, leases: new JobLeasesRepository(store.db) });
    topupReconciler.start();
    options.primary?.handle('collectMetrics', () => telemetry.metrics.registry.getMetricsAsJSON());
    const services: GatewayServices = {
      store,
      repositories,
      changes,
      settings,
      principals,
      catalog,
      adminAuth: authenticator,
      ledger,
      holdKeeper,
      rateLimiter,
      loginThrottle,
      health,
      routing,
      guardrails,
      keyRotation: health.keys,
      dispatcher: upstreamDispatcher,
      tracker,
      logger,
      telemetry,
      observer: telemetry.observer,
      webhooks,
      retention,
      payments,
      topupReconciler,
    };
    const app = buildApp({
      services,
      onUnexpectedError: (error, request) =>
        logger.error({ err: error, requestId: request.id, url: request.url }, 'unexpected error'),
    });
    const realtime = attachRealtimeRelay(app.server, services, { heartbeatMs: options.realtimeHeartbeatMs });
    // One apply at a time: a second signal waits for the first apply to end.
    let reloading = Promise.resolve();
    return {
      app,
      services,
      realtime,
      generatedAdminToken: generatedToken,
      reloadConfigFile: () =>
        (reloading = reloading.then(() =>
          reapplyConfigFile(store, environment.configFile, logger, async (topics) => {
            for (const topic of topics) await changes.publish(topic);
          }),
        )),
      close: (graceMs = environment.shutdownGraceMs) => shutDown(services, app, graceMs, realtime),
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
