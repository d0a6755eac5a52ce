import type { InviteCodeRecord } from '../store/invite-codes-repository.js';

/**
 * An invite code as the management API shows it. `code` is the masked hint, except in the answer
 * to the creating POST, which passes the full code once; the hash is never shown.
 */
export function serializeInviteCode(invite: InviteCodeRecord, fullCode?: string) {
  return {
    id: invite.id,
    code: fullCode ?? invite.hint,
    status: invite.usedAt === null ? ('unused' as const) : ('used' as const),
    used_by: invite.usedBy,
    used_at: invite.usedAt,
    created_at: invite.createdAt,
  };
}
