import { Counter, type Registry } from 'prom-client';

/** One series of a counter family: a plain number the hot path adds to. */
export interface Tally {
  value: number;
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * A Prometheus counter whose series are plain numbers while requests run, copied into prom-client
 * only when scraped. prom-client hashes the label set on every `inc`, even through a child; here
 * the hot path finds its series with one map lookup and adds to a number.
 */
export class TallyFamily {
  private readonly tallies = new Map<string, Tally>();
  private readonly labelNames: readonly string[];

  constructor(config: { name: string; help: string; labelNames: readonly string[]; registers: Registry[] }) {
    const counter: Counter = new Counter({
      ...config,
      collect: () => {
        counter.reset();
        for (const tally of this.tallies.values()) counter.inc(tally.labels, tally.value);
      },
    });
    this.labelNames = config.labelNames;
  }

  /** The series of these label values, in the order of the family's label names. */
  get(values: readonly string[]): Tally {
    const id = values.length === 1 ? (values[0] ?? '') : values.join('\u0000');
    let tally = this.tallies.get(id);
    if (tally === undefined) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, index) => {
        labels[name] = values[index] ?? '';
      });
      tally = { value: 0, labels };
      this.tallies.set(id, tally);
    }
    return tally;
  }
}
