import cluster from 'node:cluster';
import { IpcLink } from './cluster/ipc-link.js';
import { primaryPort } from './cluster/ipc-ports.js';
import type { Environment } from './config/environment.js';
import { createGateway } from './gateway.js';
import type { Logger } from './observability/logger.js';

/** Says the admin token generated on the first start, once (only its hash is stored). */
export function printGeneratedAdminToken(token: string | undefined): void {
  if (token) process.stdout.write(`Generated admin token (shown once, only its hash is stored): ${token}\n`);
}

/**
 * One server process: the whole gateway, or one worker of a cluster. A worker joins its primary
 * (which holds what the workers share) before it listens on the primary's shared port, and leaves
 * the ready line and the admin token to the primary.
 */
export async function serve(environment: Environment, logger: Logger): Promise<void> {
  const primary = cluster.isWorker
    ? new IpcLink(primaryPort(), (error, context) =>
        logger.debug({ err: error, context }, 'channel to the primary failed'),
      )
    : undefined;
  const gateway = await createGateway(environment, logger, { primary });
  printGeneratedAdminToken(gateway.generatedAdminToken);
  await primary?.call('join', {}, 30_000);

  const address = await gateway.app.listen({ port: environment.port, host: environment.host });
  if (primary) {
    primary.notify('listening', { address });
    logger.info({ address, pid: process.pid }, 'worker listening');
  } else {
    logger.info({ address, database: gateway.services.store.dialect }, `gateway ready on ${address}`);
  }

  let stopping = false;
  async function stop(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, ...(primary && { pid: process.pid }) }, 'gateway stopping');
    try {
      await gateway.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'gateway failed to stop cleanly');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // The configuration file is read again; in a cluster the primary does it once for its workers.
  process.on('SIGHUP', () => {
    if (primary) logger.debug({ pid: process.pid }, 'SIGHUP: the primary applies the configuration file');
    else void gateway.reloadConfigFile();
  });
}
