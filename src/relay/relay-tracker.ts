import type { Cancellation } from './cancellation.js';

/**
 * Requests being relayed and settlements still being written, so shutdown can wait for them,
 * and end what is left once the grace period is over.
 */
export class RelayTracker {
  private readonly active = new Set<Cancellation>();
  /** Background writes still running, and who waits for the count to reach none. */
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  /**
   * Registers a request's cancellation (aborted when its client leaves), so shutdown can end it
   * too. Returns what ends the registration.
   */
  begin(cancellation: Cancellation): () => void {
    this.active.add(cancellation);
    return () => void this.active.delete(cancellation);
  }

  /** Keeps a background write (settlement, usage record) in view until it finishes. */
  track<T>(work: Promise<T>): Promise<T> {
    // A count, not a set of the promises: one of these runs per request.
    this.pending += 1;
    work.then(this.writeEnded, this.writeEnded);
    return work;
  }

  private readonly writeEnded = (): void => {
    this.pending -= 1;
    if (this.pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  };

  get activeCount(): number {
    return this.active.size;
  }

  /** Settlements and other tracked writes still running. */
  get pendingCount(): number {
    return this.pending;
  }

  abortAll(reason: string): void {
    for (const cancellation of this.active) cancellation.abort(new Error(reason));
  }

  /** Resolves once no request is active, or when the grace period runs out. */
  async waitForIdle(graceMs: number): Promise<boolean> {
    const deadline = Date.now() + graceMs;
    while (this.active.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return this.active.size === 0;
  }

  /** Resolves once no tracked write is running, those tracked while waiting included. */
  async settled(): Promise<void> {
    if (this.pending > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
