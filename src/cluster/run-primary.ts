import type { Environment } from '../config/environment.js';
import type { Logger } from '../observability/logger.js';
import { printGeneratedAdminToken } from '../serve.js';
import { prepareSharedStore } from './prepare-shared-store.js';
import { WorkerSupervisor } from './worker-supervisor.js';
import type { ChangeTopic } from '../events/change-feed.js';
import { RedisChangeFeed } from '../events/redis-change-feed.js';

/**
 * A worker's stop takes the drain period (`/readyz` failing while requests are still taken), the
 * grace period for its requests, then up to ten seconds for settlements
 * and its usage records (shut-down.ts); past this margin on top, it is killed (its holds are then
 * returned by the next start).
 */
const DRAIN_MARGIN_MS = 15_000;

/**
 * The primary process of `GATEWAY_WORKERS` > 1: prepares the store once, forks the workers, keeps
 * them running and drains them on SIGTERM/SIGINT. It serves no request itself; it holds what the
 * workers share without Redis (rate counters, the change and health relays).
 */
export async function runPrimary(environment: Environment, logger: Logger): Promise<void> {
  const store = await prepareSharedStore(environment, logger);
  printGeneratedAdminToken(store.generatedAdminToken);
  const supervisor = new WorkerSupervisor({
    count: environment.workers,
    logger,
    drainDeadlineMs:
      environment.observability.shutdownDrainMs + environment.shutdownGraceMs + DRAIN_MARGIN_MS,
  });

  let stopping = false;
  const stop = async (signal: string, failed = false) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: environment.workers }, 'gateway stopping');
    const clean = await supervisor.drain();
    await supervisor.close();
    await store.close();
    process.exit(clean && !failed ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  let reloading = Promise.resolve();
  process.on('SIGHUP', () => {
    reloading = reloading.then(() =>
      store.reapplyConfigFile((topics) => announceChanges(supervisor, environment.redisUrl, topics, logger)),
    );
  });

  try {
    // Instances already serving reload what the file changed (the workers load it at start).
    await announceChanges(supervisor, environment.redisUrl, store.configTopics, logger);
    const address = await supervisor.start();
    logger.info(
      { address, workers: environment.workers, database: store.dialect },
      `gateway ready on ${address}`,
    );
  } catch (error) {
    if (stopping) return;
    logger.error({ err: error }, 'the gateway workers could not start');
    await stop('start failure', true);
  }
}

/**
 * Changes the primary made: this machine's workers reload before it goes on, and with Redis every
 * other instance hears of them too, as of a change made through the management API.
 */
async function announceChanges(
  supervisor: WorkerSupervisor,
  redisUrl: string | undefined,
  topics: readonly ChangeTopic[],
  logger: Logger,
): Promise<void> {
  for (const topic of topics) await supervisor.hub.announce(topic);
  if (!redisUrl || topics.length === 0) return;
  const feed = await RedisChangeFeed.connect(redisUrl, (error, context) =>
    logger.warn({ err: error, context }, 'change feed trouble'),
  );
  try {
    for (const topic of topics) await feed.publish(topic);
  } finally {
    await feed.close();
  }
}
