import type { MetricValueWithName, Registry } from 'prom-client';
import { LabelledChildren, labelSet } from './labelled-children.js';

/** One series of a histogram family: observations per bucket, kept as plain numbers. */
export class BucketSeries {
  /** Observations per bucket, not cumulative; the last one is `+Inf`. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    private readonly bounds: readonly number[],
    readonly labels: Readonly<Record<string, string>>,
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && value > (bounds[bucket] as number)) bucket++;
    (this.counts[bucket] as number) += 1;
    this.sum += value;
    this.count += 1;
  }
}

/** A value as prom-client's registry formats it: the bucket's own labels apart from the series'. */
type ExportedValue = MetricValueWithName<string> & { sharedLabels: Readonly<Record<string, string>> };

/**
 * A Prometheus histogram whose series are plain bucket counts while requests run, turned into
 * prom-client's values only when scraped. prom-client validates and hashes the label set on every
 * `observe`, even through a child; here the hot path finds its series with a few map lookups. The
 * registry sees a metric of prom-client's histogram shape, so the exposition and the cluster
 * aggregation stay prom-client's.
 */
export class BucketFamily {
  private readonly series: LabelledChildren<BucketSeries>;
  private readonly bounds: readonly number[];

  constructor(config: {
    name: string;
    help: string;
    labelNames: readonly string[];
    buckets: readonly number[];
    registers: Registry[];
  }) {
    const bounds = [...config.buckets].sort((a, b) => a - b);
    this.bounds = bounds;
    this.series = new LabelledChildren(
      (values) => new BucketSeries(bounds, labelSet(config.labelNames, values)),
    );
    const head = { name: config.name, help: config.help, type: 'histogram', aggregator: 'sum' } as const;
    const exported = () => ({ ...head, values: this.values(config.name) });
    const metric = {
      ...head,
      getForPromString: async () => exported(),
      get: async () => {
        const snapshot = exported();
        return {
          ...snapshot,
          values: snapshot.values.map(({ sharedLabels, labels, ...value }) => ({
            ...value,
            labels: { ...labels, ...sharedLabels },
          })),
        };
      },
      reset: () => this.reset(),
    };
    for (const registry of config.registers) registry.registerMetric(metric as never);
  }

  /** The series of these label values, in the order of the family's label names. */
  get(values: readonly string[]): BucketSeries {
    return this.series.get(values);
  }

  private reset(): void {
    for (const series of this.series.all()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** prom-client's histogram values: cumulative buckets (`+Inf` last), then the sum and the count. */
  private values(name: string): ExportedValue[] {
    const values: ExportedValue[] = [];
    for (const series of this.series.all()) {
      const sharedLabels = series.labels;
      let cumulative = 0;
      series.counts.forEach((count, index) => {
        cumulative += count;
        values.push({
          metricName: `${name}_bucket`,
          labels: { le: this.bounds[index] ?? '+Inf' },
          sharedLabels,
          value: cumulative,
        });
      });
      values.push({ metricName: `${name}_sum`, labels: {}, sharedLabels, value: series.sum });
      values.push({ metricName: `${name}_count`, labels: {}, sharedLabels, value: series.count });
    }
    return values;
  }
}
