/** The longest an upstream's `Retry-After` may hold a (channel, model) pair out of rotation. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

export interface CooldownInput {
  /** Consecutive failures of the pair, this one included (at least 1). */
  failures: number;
  /** `model_cooldown_s`: the first cooldown. */
  baseSeconds: number;
  /** `model_cooldown_max_s`: the doubling stops here. */
  maxSeconds: number;
  /** The upstream's `Retry-After`, when it sent one. */
  retryAfterSeconds?: number | undefined;
}

/**
 * How long a failing pair stays out of rotation (DESIGN section 6, admin-api section 7): the base
 * cooldown doubled per consecutive failure up to the maximum, but never less than the upstream
 * asked for in `Retry-After` (itself capped at an hour, so a wild value cannot park a model for days).
 */
export function cooldownSeconds(input: CooldownInput): number {
  const exponent = Math.max(0, input.failures - 1);
  // 2^exponent overflows to Infinity long after it passed any sane maximum; min() handles both.
  const doubled = Math.min(input.maxSeconds, input.baseSeconds * 2 ** exponent);
  const retryAfter = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, input.retryAfterSeconds ?? 0));
  return Math.max(doubled, retryAfter);
}
