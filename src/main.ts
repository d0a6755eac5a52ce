// First: how the engine's heap treats the objects of every request (see the module).
import './heap-settings.js';
import cluster from 'node:cluster';
import { runPrimary } from './cluster/run-primary.js';
import { readEnvironment } from './config/environment.js';
import { batchedStdout, createLogger } from './observability/logger.js';
import { serve } from './serve.js';

const environment = readEnvironment();
const logger = createLogger(
  environment.logLevel,
  environment.observability.logFormat,
  // With workers, the primary and every worker write to the same stdout.
  batchedStdout(environment.workers > 1 ? 'shared' : 'alone'),
);

// Last resort: a failure nobody handled is logged with its stack, and the gateway keeps serving.
// Money is safe either way: every reservation is a durable hold settled or returned exactly once.
process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
process.on('uncaughtException', (error) => logger.error({ err: error }, 'uncaught exception'));

// With `GATEWAY_WORKERS` above 1 this process forks the workers, which run this file again.
try {
  if (environment.workers > 1 && cluster.isPrimary) await runPrimary(environment, logger);
  else await serve(environment, logger);
} catch (error) {
  // A gateway that cannot start (database unreachable, migration refused) must not look like one
  // that stopped cleanly to whatever supervises it. The exit writes the buffered log lines first.
  logger.fatal({ err: error }, 'gateway failed to start');
  process.exit(1);
}
