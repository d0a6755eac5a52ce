export const REDEMPTION_CODE_STATUSES = ['unused', 'used', 'expired', 'disabled'] as const;
export type RedemptionCodeStatus = (typeof REDEMPTION_CODE_STATUSES)[number];

/** A code as `GET /api/redemption-codes` lists it (admin-api section 15): `code` masked. */
export interface RedemptionCode {
  id: number;
  code: string;
  name: string | null;
  amount: number;
  status: RedemptionCodeStatus | (string & {});
  expires_at: number | null;
  used_by: number | null;
  used_at: number | null;
  created_at: number;
}

/** A code in the answer that made it: the only time `code` is shown in full. */
export interface CreatedRedemptionCode {
  id: number;
  code: string;
  amount: number;
  expires_at: number | null;
  name: string | null;
}

/** The body of `POST /api/redemption-codes`. */
export interface NewRedemptionCodes {
  amount: number;
  count: number;
  expires_at?: number;
  name?: string;
}
