import { deriveKeyStatus } from '../auth/derive-key-status.js';
import { nanoToUsd } from '../billing/money.js';
import type { KeyRecord } from '../store/keys-repository.js';
import { unixNow } from '../store/json-column.js';
import { serializeBudget } from './serialize-budget.js';

/**
 * A key as the management API shows it. `key` is the masked hint, except in the response to the
 * creating POST, which passes the full key once; the hash is never shown.
 */
export function serializeKey(key: KeyRecord, fullKey?: string) {
  return {
    id: key.id,
    user_id: key.userId,
    name: key.name,
    key: fullKey ?? key.keyHint,
    status: deriveKeyStatus(key, unixNow()),
    expires_at: key.expiresAt,
    unlimited_quota: key.unlimitedQuota,
    quota: nanoToUsd(key.quota),
    used_quota: nanoToUsd(key.usedQuota),
    model_limits: key.modelLimits,
    ip_allow_list: key.ipAllowList,
    group: key.group,
    rpm: key.rpm,
    tpm: key.tpm,
    budgets: key.budgets.map(serializeBudget),
    max_concurrency: key.maxConcurrency,
    log_bodies: key.logBodies,
    created_at: key.createdAt,
  };
}
