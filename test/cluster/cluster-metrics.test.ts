import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { afterEach, expect, test } from 'vitest';
import { IpcLink } from '../../src/cluster/ipc-link.js';
import { PrimaryHub } from '../../src/cluster/primary-hub.js';
import { createLogger } from '../../src/observability/logger.js';
import { ipcPortPair, type PortPair } from '../helpers/ipc-port-pair.js';
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js';

/** One worker's registry with the kinds of family the gateway has, filled with `scale` times a base. */
function workerRegistry(scale: number): Registry {
  const registry = new Registry();
  const registers = [registry];
  new Counter({ name: 'requests_total', help: 'r', labelNames: ['status'], registers }).inc(
    { status: '200' },
    3 * scale,
  );
  const latency = new Histogram({ name: 'latency_seconds', help: 'l', buckets: [0.1, 1], registers });
  for (let index = 0; index < scale; index += 1) latency.observe(0.5);
  new Gauge({ name: 'open_streams', help: 'o', registers }).set(scale);
  new Gauge({ name: 'pair_state', help: 'p', labelNames: ['state'], aggregator: 'max', registers }).set(
    { state: 'healthy' },
    2,
  );
  return registry;
}

let hub: PrimaryHub;
const links: IpcLink[] = [];
afterEach(async () => {
  for (const link of links.splice(0)) link.close();
  await hub.close();
});

async function addWorker(id: number, registry: Registry): Promise<{ link: IpcLink; pair: PortPair }> {
  const pair = ipcPortPair();
  hub.attach(id, pair.primary);
  const link = new IpcLink(pair.worker);
  links.push(link);
  link.handle('collectMetrics', () => registry.getMetricsAsJSON());
  await link.call('join', {}, 1_000);
  return { link, pair };
}

test("a worker asking for metrics gets every ready worker's, aggregated as each family declares", async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const first = await addWorker(1, workerRegistry(1));
  await addWorker(2, workerRegistry(2));
  // Attached but not yet joined: its caches are not loaded, and it has served nothing.
  const starting = ipcPortPair();
  hub.attach(3, starting.primary);

  const families = parsePrometheusText(await first.link.call('metrics', {}, 5_000));
  expect(valueOf(families, 'requests_total', { status: '200' })).toBe(9);
  expect(valueOf(families, 'latency_seconds_count')).toBe(3);
  expect(valueOf(families, 'latency_seconds_sum')).toBe(1.5);
  expect(valueOf(families, 'latency_seconds_bucket', { le: '1' })).toBe(3);
  expect(valueOf(families, 'latency_seconds_bucket', { le: '+Inf' })).toBe(3);
  expect(valueOf(families, 'open_streams')).toBe(3);
  expect(valueOf(families, 'pair_state', { state: 'healthy' })).toBe(2);
});

test('a worker that does not answer is left out and reported; the scrape fails only when none answers', async () => {
  const missing: number[] = [];
  const logger = createLogger('silent');
  logger.warn = ((fields: { workerId?: number }) => {
    if (fields.workerId !== undefined) missing.push(fields.workerId);
  }) as typeof logger.warn;
  hub = new PrimaryHub({ logger });
  const asking = await addWorker(1, workerRegistry(1));
  const dead = await addWorker(2, workerRegistry(5));
  dead.pair.cut();

  const families = parsePrometheusText(await asking.link.call('metrics', {}, 5_000));
  expect(valueOf(families, 'requests_total', { status: '200' })).toBe(3);
  expect(missing).toEqual([2]);

  hub.detach(1);
  hub.detach(2);
  const lonely = await addWorker(3, workerRegistry(1));
  lonely.link.handle('collectMetrics', () => Promise.reject(new Error('registry broken')));
  await expect(lonely.link.call('metrics', {}, 5_000)).rejects.toThrow('no worker answered');
});
