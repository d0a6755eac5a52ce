import { apiRequest } from '../api/api-client';
import type { ListResponse, SignedInUser } from '../api/types';
import type { BalanceCredit } from './balance-credit';

/** `POST /api/me/redeem`: the user with the new balance; a code that cannot be used is 400 `invalid_redemption_code`. */
export function redeemCode(code: string): Promise<SignedInUser> {
  return apiRequest<SignedInUser>('/me/redeem', { method: 'POST', body: { code } });
}

/** `GET /api/me/credits`: what raised the caller's balance, newest first. */
export async function listOwnCredits(): Promise<BalanceCredit[]> {
  return (await apiRequest<ListResponse<BalanceCredit>>('/me/credits', { query: { limit: 100 } })).data;
}
