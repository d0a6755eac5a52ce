import { nanoToUsd } from '../billing/money.js';
import { unixNow } from '../store/json-column.js';
import { redemptionCodeStatus, type RedemptionCodeRecord } from '../store/redemption-codes-repository.js';

/**
 * A redemption code as the management API shows it. `code` is the masked hint, except in the
 * answer to the creating POST, which passes the full code once; the hash is never shown.
 */
export function serializeRedemptionCode(redemption: RedemptionCodeRecord, fullCode?: string) {
  return {
    id: redemption.id,
    code: fullCode ?? redemption.hint,
    name: redemption.name,
    amount: nanoToUsd(redemption.amount),
    status: redemptionCodeStatus(redemption, unixNow()),
    expires_at: redemption.expiresAt,
    used_by: redemption.usedBy,
    used_at: redemption.usedAt,
    created_at: redemption.createdAt,
  };
}
