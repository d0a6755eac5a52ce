import { MAX_RETRY_AFTER_SECONDS } from './cooldown-seconds.js';

/**
 * Seconds from a `Retry-After` header: delta-seconds or an HTTP date (RFC 9110 section 10.2.3).
 * Undefined when absent or unreadable; capped at an hour; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | readonly string[] | number | undefined,
  nowMs: number,
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  let seconds: number;
  if (typeof raw === 'number') {
    seconds = raw;
  } else {
    const text = String(raw).trim();
    if (text === '') return undefined;
    if (/^\d+(\.\d+)?$/.test(text)) {
      seconds = Number(text);
    } else {
      // An HTTP date starts with the day name; anything else (a negative number) is unreadable.
      const date = /^[A-Za-z]/.test(text) ? Date.parse(text) : Number.NaN;
      if (Number.isNaN(date)) return undefined;
      seconds = Math.ceil((date - nowMs) / 1000);
    }
  }
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, seconds));
}
