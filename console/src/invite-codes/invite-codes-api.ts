import { apiRequest } from '../api/api-client';
import type { ListResponse } from '../api/types';
import type { InviteCode } from './invite-code';

/** `POST /api/invite-codes`: 201 with the new codes, in full this once. */
export async function createInviteCodes(count: number): Promise<InviteCode[]> {
  return (await apiRequest<ListResponse<InviteCode>>('/invite-codes', { method: 'POST', body: { count } }))
    .data;
}

/** `GET /api/invite-codes`: masked, newest first. */
export async function listInviteCodes(page: { limit: number; offset: number }): Promise<InviteCode[]> {
  return (await apiRequest<ListResponse<InviteCode>>('/invite-codes', { query: page })).data;
}

export async function deleteInviteCode(id: number): Promise<void> {
  await apiRequest<unknown>(`/invite-codes/${id}`, { method: 'DELETE' });
}
