import type { Logger } from '../observability/logger.js';

/** A step says whether to run again after the interval. */
export type ProbeStep = () => Promise<'again' | 'done'>;

/**
 * Background probes, at most one loop per id: each runs its step every interval until the step
 * says it is done. A step that throws (database or network blip) is logged and run again later;
 * nothing escapes as an unhandled rejection.
 */
export class ProbeLoops {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly options: {
      /** Read before every wait, so a changed setting applies at the next probe. */
      intervalMs: () => number;
      logger: Logger;
    },
  ) {}

  has(id: string): boolean {
    return this.timers.has(id);
  }

  /** Starts the loop unless one with this id already runs. */
  start(id: string, step: ProbeStep): void {
    if (this.closed || this.timers.has(id)) return;
    this.arm(id, step);
  }

  stop(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(id: string, step: ProbeStep): void {
    const timer: NodeJS.Timeout = setTimeout(() => void this.run(id, step, timer), this.options.intervalMs());
    timer.unref();
    this.timers.set(id, timer);
  }

  private async run(id: string, step: ProbeStep, timer: NodeJS.Timeout): Promise<void> {
    let outcome: 'again' | 'done' = 'again';
    try {
      outcome = await step();
    } catch (error) {
      this.options.logger.warn({ err: error, probe: id }, 'health probe failed; trying again later');
    }
    // Stopped (or restarted) while the step ran: that decision stands.
    if (this.timers.get(id) !== timer) return;
    if (outcome === 'done' || this.closed) this.timers.delete(id);
    else this.arm(id, step);
  }
}
