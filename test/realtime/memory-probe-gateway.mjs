// The built gateway in a process of its own, for `idle-session-memory.test.ts`: it listens on a
// random loopback port, tells its parent the origin, and on `measure` collects garbage (run with
// `--expose-gc`) and answers with `process.memoryUsage()` and the sessions it holds open.
import '../../dist/heap-settings.js';
import { readEnvironment } from '../../dist/config/environment.js';
import { createGateway } from '../../dist/gateway.js';
import { createLogger } from '../../dist/observability/logger.js';

const environment = {
  ...readEnvironment({}),
  dataDir: ':memory:',
  adminToken: process.env.PROBE_ADMIN_TOKEN,
  logLevel: 'silent',
};
const gateway = await createGateway(environment, createLogger('silent'));
const origin = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
process.send({ origin });
process.on('message', async (message) => {
  if (message === 'measure') {
    for (let round = 0; round < 3; round += 1) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    process.send({ memory: process.memoryUsage(), sessions: gateway.realtime.openSessions });
  }
  if (message === 'stop') {
    await gateway.close(100);
    process.exit(0);
  }
});
