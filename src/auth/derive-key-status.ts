import type { KeyRecord } from '../store/keys-repository.js';

export type KeyStatus = 'enabled' | 'disabled' | 'expired' | 'exhausted';

/** `expired` and `exhausted` are never stored: they follow from the clock and the remaining quota. */
export function deriveKeyStatus(key: KeyRecord, nowSeconds: number): KeyStatus {
  if (key.status === 'disabled') return 'disabled';
  if (key.expiresAt !== null && key.expiresAt <= nowSeconds) return 'expired';
  if (!key.unlimitedQuota && key.quota <= 0) return 'exhausted';
  return 'enabled';
}
