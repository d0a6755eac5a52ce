import type { Cancellation } from './cancellation.js';

/**
 * Requests being relayed and settlements still being written, so shutdown can wait for them,
 * and end what is left once the grace period is over.
 */
export class RelayTracker {
  private readonly active = new Set<Cancellation>();
  private readonly pending = new Set<Promise<unknown>>();

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
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => undefined);
    return work;
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** Settlements and other tracked writes still running. */
  get pendingCount(): number {
    return this.pending.size;
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

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
