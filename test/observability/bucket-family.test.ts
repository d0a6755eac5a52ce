import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { expect, test } from 'vitest';
import { BucketFamily } from '../../src/observability/metrics/bucket-family.js';

const BUCKETS = [0.05, 0.5, 1, 10];
const OBSERVATIONS: [string, string, number][] = [
  ['chat', 'false', 0.01],
  ['chat', 'false', 0.05], // on a bound: counted in that bucket, as Prometheus's `le` says
  ['chat', 'false', 0.7],
  ['chat', 'true', 12], // past every bound: only in +Inf
  ['messages', 'true', 1],
  ['chat', 'false', 0],
];

/** The same observations in a prom-client histogram and in a bucket family, each in its own registry. */
function both() {
  const config = { name: 'request_seconds', help: 'Request time.', labelNames: ['endpoint', 'stream'] };
  const reference = new Registry();
  const histogram = new Histogram({ ...config, buckets: BUCKETS, registers: [reference] });
  const ours = new Registry();
  const family = new BucketFamily({ ...config, buckets: BUCKETS, registers: [ours] });
  for (const [endpoint, stream, value] of OBSERVATIONS) {
    histogram.labels(endpoint, stream).observe(value);
    family.get([endpoint, stream]).observe(value);
  }
  return { reference, ours, family, histogram };
}

test("a bucket family is exposed exactly as prom-client's histogram with the same observations", async () => {
  const { reference, ours } = both();
  expect(await ours.metrics()).toBe(await reference.metrics());
  // Exemplars aside: prom-client's histogram has none unless enabled, and says so with empty members.
  const withoutExemplars = (key: string, value: unknown) => (key === 'exemplar' ? undefined : value);
  const json = async (registry: Registry) =>
    JSON.parse(JSON.stringify(await registry.getMetricsAsJSON(), withoutExemplars)) as unknown;
  expect(await json(ours)).toEqual(await json(reference));
});

test('a series found again is the same series, and a reset zeroes every series', async () => {
  const { reference, ours, family } = both();
  expect(family.get(['chat', 'false'])).toBe(family.get(['chat', 'false']));
  expect(family.get(['chat', 'false']).count).toBe(4);
  ours.resetMetrics();
  reference.resetMetrics();
  expect(family.get(['chat', 'false']).count).toBe(0);
  family.get(['chat', 'true']).observe(2);
  const text = await ours.metrics();
  expect(text).toContain('request_seconds_bucket{le="1",endpoint="chat",stream="true"} 0');
  expect(text).toContain('request_seconds_bucket{le="10",endpoint="chat",stream="true"} 1');
  expect(text).toContain('request_seconds_count{endpoint="chat",stream="true"} 1');
  expect(text).toContain('request_seconds_count{endpoint="chat",stream="false"} 0');
});

test("workers' bucket families add up across a cluster as prom-client's histograms do", async () => {
  const first = both();
  const second = both();
  const aggregated = (registries: Registry[]) =>
    Promise.all(registries.map((registry) => registry.getMetricsAsJSON())).then((snapshots) =>
      AggregatorRegistry.aggregate(snapshots).metrics(),
    );
  const ours = await aggregated([first.ours, second.ours]);
  expect(ours).toBe(await aggregated([first.reference, second.reference]));
  expect(ours).toContain('request_seconds_count{endpoint="chat",stream="false"} 8');
});
