import { AggregatorRegistry } from 'prom-client';
import type { MetricSnapshot } from './cluster-messages.js';
import type { IpcLink } from './ipc-link.js';

/** How long the primary waits for one worker's metrics before scraping without them. */
const COLLECT_TIMEOUT_MS = 3_000;

/**
 * The machine's metrics from its workers': each family aggregated as it declares (counters and
 * histograms summed, a few process gauges averaged or taken once), in Prometheus text format. A
 * worker that does not answer in time is left out and reported; with no answer at all the scrape fails.
 */
export async function gatherClusterMetrics(
  workers: Iterable<[workerId: number, link: IpcLink]>,
  onMissing: (workerId: number, error: unknown) => void,
): Promise<string> {
  const asked = [...workers];
  const answers = await Promise.allSettled(
    asked.map(([, link]) => link.call('collectMetrics', {}, COLLECT_TIMEOUT_MS)),
  );
  const snapshots: MetricSnapshot[] = [];
  answers.forEach((answer, index) => {
    if (answer.status === 'fulfilled') snapshots.push(answer.value);
    else onMissing(asked[index]![0], answer.reason);
  });
  if (snapshots.length === 0) throw new Error('no worker answered for its metrics');
  return AggregatorRegistry.aggregate(snapshots).metrics();
}
