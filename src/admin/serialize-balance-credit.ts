import { nanoToUsd } from '../billing/money.js';
import type { BalanceCredit } from '../store/balance-credits-repository.js';

/** A credit to a balance: how much (USD), of which kind, from what (a code's or order's id), when. */
export function serializeBalanceCredit(credit: BalanceCredit) {
  return {
    id: credit.id,
    amount: nanoToUsd(credit.amount),
    kind: credit.kind,
    reference: credit.reference,
    created_at: credit.createdAt,
  };
}
