import type { UnusedLeases } from '../cluster/cluster-messages.js';
import { WINDOW_MS, type RateLease } from './rate-limiter.js';

/** Requests of one key counted ahead by the primary, spent here one by one. */
interface HeldLease {
  rpm: number;
  left: number;
  windowStart: number;
  until: number;
}

/**
 * The leases of rpm-limited keys one worker holds, one per key, each spendable for `leaseMs` and
 * within the window it was counted in. A lease that ends with requests unused hands them to
 * `giveBack`, for the primary to take back: when its time is up, when another replaces it, or
 * when the worker asks for its key again.
 */
export class HeldLeases {
  private readonly held = new Map<number, HeldLease>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      leaseMs: number;
      now: () => number;
      giveBack: (unused: UnusedLeases) => void;
    },
  ) {}

  /** Spends one request of the key's lease; false when there is none to spend now at this `rpm`. */
  spend(keyId: number, rpm: number): boolean {
    const lease = this.held.get(keyId);
    if (!lease || lease.left === 0 || lease.rpm !== rpm || this.over(lease, this.options.now())) return false;
    lease.left -= 1;
    return true;
  }

  /** Holds the `left` requests of a lease granted for the key, ending the one held before. */
  keep(keyId: number, rpm: number, lease: RateLease, left: number): void {
    this.end((id) => id === keyId);
    if (left <= 0) return;
    const until = this.options.now() + this.options.leaseMs;
    this.held.set(keyId, { rpm, left, windowStart: lease.windowStart, until });
    this.timer ??= this.expireLater();
  }

  /** Ends the leases of the keys `which` picks. */
  end(which: (keyId: number) => boolean): void {
    const unused: UnusedLeases = [];
    for (const [keyId, lease] of this.held) {
      if (!which(keyId)) continue;
      this.held.delete(keyId);
      if (lease.left > 0) unused.push([keyId, lease.left, lease.windowStart]);
    }
    if (unused.length > 0) this.options.giveBack(unused);
  }

  /** Ends every lease, and the timer with them. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.end(() => true);
  }

  private expireLater(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const now = this.options.now();
      this.end((keyId) => this.over(this.held.get(keyId)!, now));
      this.timer = this.held.size > 0 ? this.expireLater() : undefined;
    }, this.options.leaseMs);
    timer.unref();
    return timer;
  }

  /** Past its time, or its window: what is left of it can no longer be spent. */
  private over(lease: HeldLease, now: number): boolean {
    return now >= lease.until || now - lease.windowStart >= WINDOW_MS;
  }
}
