import { apiRequest } from '../api/api-client';
import type { ListResponse } from '../api/types';
import type { CreatedRedemptionCode, NewRedemptionCodes, RedemptionCode } from './redemption-code';

function codePath(id: number): string {
  return `/redemption-codes/${id}`;
}

/** `POST /api/redemption-codes`: 201 with the batch, each code in full this once. */
export async function createRedemptionCodes(fields: NewRedemptionCodes): Promise<CreatedRedemptionCode[]> {
  return (
    await apiRequest<ListResponse<CreatedRedemptionCode>>('/redemption-codes', {
      method: 'POST',
      body: fields,
    })
  ).data;
}

/** `GET /api/redemption-codes`: masked, newest first. */
export async function listRedemptionCodes(page: {
  limit: number;
  offset: number;
}): Promise<RedemptionCode[]> {
  return (await apiRequest<ListResponse<RedemptionCode>>('/redemption-codes', { query: page })).data;
}

/**
 * `PATCH /api/redemption-codes/{id}`: `disabled` and the code can no longer be redeemed; `unused`
 * lifts that again.
 */
export function setRedemptionCodeStatus(id: number, status: 'disabled' | 'unused'): Promise<RedemptionCode> {
  return apiRequest<RedemptionCode>(codePath(id), { method: 'PATCH', body: { status } });
}

export async function deleteRedemptionCode(id: number): Promise<void> {
  await apiRequest<unknown>(codePath(id), { method: 'DELETE' });
}
