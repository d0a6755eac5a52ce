/**
 * Per-key requests-per-minute and tokens-per-minute limits (admin-api: `rpm`, `tpm`). Both
 * implementations count in one-minute windows and weigh the previous window by how much of it
 * still overlaps the last sixty seconds, a close approximation of a sliding window.
 */
export interface RateLimits {
  rpm: number | null;
  tpm: number | null;
}

export type RateDecision =
  { allowed: true } | { allowed: false; limit: 'rpm' | 'tpm'; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request when it is allowed; refuses when either limit is already reached. */
  admit(keyId: number, limits: RateLimits): Promise<RateDecision>;
  /** Adds the tokens a finished request used to the key's current window. */
  recordTokens(keyId: number, tokens: number): Promise<void>;
  close(): Promise<void>;
}

export const WINDOW_MS = 60_000;

/**
 * Requests of a key counted ahead for one worker, which admits them on its own (keys limited by
 * `rpm` alone, see `IpcRateLimiter`): `granted` of them in the window starting at `windowStart`.
 * When fewer were granted than were waiting, the rest are refused, and `retryAfterSeconds` says
 * for how long.
 */
export interface RateLease {
  granted: number;
  windowStart: number;
  retryAfterSeconds?: number;
}

export interface WindowCounts {
  previous: number;
  current: number;
}

/** Weighted count over the last minute. */
export function slidingCount(counts: WindowCounts, elapsedInWindowMs: number): number {
  return counts.previous * (1 - elapsedInWindowMs / WINDOW_MS) + counts.current;
}

/**
 * Whole seconds until `slidingCount + cost <= limit` can hold again: the previous window's weight
 * fades, and the current window's count is forgotten only once the next window is past.
 */
export function secondsUntilAllowed(options: {
  counts: WindowCounts;
  elapsedInWindowMs: number;
  limit: number;
  cost: number;
}): number {
  const { counts, elapsedInWindowMs, limit, cost } = options;
  let waitMs: number;
  if (counts.current + cost > limit) {
    // Wait for the next window, where the current count becomes the fading previous one.
    const intoNext = counts.current > 0 ? Math.max(0, 1 - (limit - cost) / counts.current) * WINDOW_MS : 0;
    waitMs = WINDOW_MS - elapsedInWindowMs + intoNext;
  } else {
    const fadeUntil =
      counts.previous > 0 ? (1 - (limit - cost - counts.current) / counts.previous) * WINDOW_MS : 0;
    waitMs = fadeUntil - elapsedInWindowMs;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
