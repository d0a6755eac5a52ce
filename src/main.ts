import { readEnvironment } from './config/environment.js';
import { createGateway } from './gateway.js';
import { createLogger } from './observability/logger.js';

const environment = readEnvironment();
const logger = createLogger(environment.logLevel);

// Last resort: a failure nobody handled is logged with its stack, and the gateway keeps serving.
// Money is safe either way: every reservation is a durable hold settled or returned exactly once.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
process.on('uncaughtException', (error) => logger.error({ err: error }, 'uncaught exception'));
const gateway = await createGateway(environment, logger);

if (gateway.generatedAdminToken) {
  process.stdout.write(
    `Generated admin token (shown once, only its hash is stored): ${gateway.generatedAdminToken}\n`,
  );
}

const address = await gateway.app.listen({ port: environment.port, host: environment.host });
logger.info({ address, database: gateway.services.store.dialect }, `gateway ready on ${address}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'gateway stopping');
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
