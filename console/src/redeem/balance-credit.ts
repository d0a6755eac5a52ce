/** Where money put into a balance came from (admin-api section 15). */
export const CREDIT_KINDS = ['admin', 'signup', 'redemption', 'topup'] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

/** One rise of the caller's balance (`GET /api/me/credits`); a kind this console does not know is kept as sent. */
export interface BalanceCredit {
  id: number;
  amount: number;
  kind: CreditKind | (string & {});
  /** The redemption code's or the order's id; null for an admin's credit or the sign-up balance. */
  reference: string | null;
  created_at: number;
}
