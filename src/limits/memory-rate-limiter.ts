import {
  secondsUntilAllowed,
  slidingCount,
  WINDOW_MS,
  type RateDecision,
  type RateLease,
  type RateLimiter,
  type RateLimits,
  type WindowCounts,
} from './rate-limiter.js';

/** The most requests one lease counts ahead beyond those waiting. */
const LEASE_MOST = 1_000;

interface KeyWindows {
  windowStart: number;
  requests: WindowCounts;
  tokens: WindowCounts;
}

/** Counters in this process only: right for a single instance (without `REDIS_URL`). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<number, KeyWindows>();

  constructor(private readonly now: () => number = Date.now) {}

  async admit(keyId: number, limits: RateLimits): Promise<RateDecision> {
    if (limits.rpm === null && limits.tpm === null) return { allowed: true };
    const { entry, elapsed } = this.windowOf(keyId);
    if (limits.tpm !== null && slidingCount(entry.tokens, elapsed) >= limits.tpm) {
      const retryAfterSeconds = secondsUntilAllowed({
        counts: entry.tokens,
        elapsedInWindowMs: elapsed,
        limit: limits.tpm,
        cost: 1,
      });
      return { allowed: false, limit: 'tpm', retryAfterSeconds };
    }
    if (limits.rpm !== null && slidingCount(entry.requests, elapsed) + 1 > limits.rpm) {
      const retryAfterSeconds = secondsUntilAllowed({
        counts: entry.requests,
        elapsedInWindowMs: elapsed,
        limit: limits.rpm,
        cost: 1,
      });
      return { allowed: false, limit: 'rpm', retryAfterSeconds };
    }
    entry.requests.current += 1;
    return { allowed: true };
  }

  /**
   * Counts ahead, for a key limited by `rpm` alone, the `wanted` requests waiting or, when more, a
   * `spread`th of the room left (at most `LEASE_MOST`), so that the room lent out at once stays a
   * fraction of what is left and shrinks with it: near the limit a lease holds only what is
   * waiting, as `admit` would count it one by one. Waiting requests beyond the room are refused.
   */
  lease(keyId: number, rpm: number, wanted: number, spread: number): RateLease {
    const { entry, elapsed } = this.windowOf(keyId);
    const room = Math.max(0, Math.floor(rpm - slidingCount(entry.requests, elapsed)));
    const granted = Math.min(room, Math.max(wanted, Math.min(LEASE_MOST, Math.floor(room / spread))));
    entry.requests.current += granted;
    if (granted >= wanted) return { granted, windowStart: entry.windowStart };
    const retryAfterSeconds = secondsUntilAllowed({
      counts: entry.requests,
      elapsedInWindowMs: elapsed,
      limit: rpm,
      cost: 1,
    });
    return { granted, windowStart: entry.windowStart, retryAfterSeconds };
  }

  /** Takes back what a lease counted ahead and no request used, from the window it was counted in. */
  giveBack(keyId: number, count: number, windowStart: number): void {
    if (!this.windows.has(keyId)) return;
    const { entry } = this.windowOf(keyId);
    if (entry.windowStart === windowStart) {
      entry.requests.current = Math.max(0, entry.requests.current - count);
    } else if (entry.windowStart - windowStart === WINDOW_MS) {
      entry.requests.previous = Math.max(0, entry.requests.previous - count);
    }
  }

  async recordTokens(keyId: number, tokens: number): Promise<void> {
    this.windowOf(keyId).entry.tokens.current += tokens;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private windowOf(keyId: number): { entry: KeyWindows; elapsed: number } {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    let entry = this.windows.get(keyId);
    if (!entry) {
      entry = { windowStart, requests: { previous: 0, current: 0 }, tokens: { previous: 0, current: 0 } };
      this.windows.set(keyId, entry);
    } else if (entry.windowStart !== windowStart) {
      const adjacent = windowStart - entry.windowStart === WINDOW_MS;
      entry.requests = { previous: adjacent ? entry.requests.current : 0, current: 0 };
      entry.tokens = { previous: adjacent ? entry.tokens.current : 0, current: 0 };
      entry.windowStart = windowStart;
    }
    return { entry, elapsed: now - windowStart };
  }
}
