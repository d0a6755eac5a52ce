import { Counter, type Registry } from 'prom-client';
import { LabelledChildren, labelSet } from './labelled-children.js';

/** One series of a counter family: a plain number the hot path adds to. */
export interface Tally {
  value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * A Prometheus counter whose series are plain numbers while requests run, copied into prom-client
 * only when scraped. prom-client hashes the label set on every `inc`, even through a child; here
 * the hot path finds its series with a few map lookups and adds to a number.
 */
export class TallyFamily {
  private readonly tallies: LabelledChildren<Tally>;

  constructor(config: { name: string; help: string; labelNames: readonly string[]; registers: Registry[] }) {
    this.tallies = new LabelledChildren((values) => ({
      value: 0,
      labels: labelSet(config.labelNames, values),
    }));
    const counter: Counter = new Counter({
      ...config,
      collect: () => {
        counter.reset();
        for (const tally of this.tallies.all()) counter.inc(tally.labels, tally.value);
      },
    });
  }

  /** The series of these label values, in the order of the family's label names. */
  get(values: readonly string[]): Tally {
    return this.tallies.get(values);
  }
}
