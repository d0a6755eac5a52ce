import {
  secondsUntilAllowed,
  slidingCount,
  WINDOW_MS,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
  type WindowCounts,
} from './rate-limiter.js';

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
