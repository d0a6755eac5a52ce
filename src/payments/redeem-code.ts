import { hashSecretCode } from '../auth/secret-code.js';
import { MAX_USD, NANO_PER_USD } from '../billing/money.js';
import type { Store } from '../store/database.js';
import { unixNow } from '../store/json-column.js';
import type { Repositories } from '../store/repositories.js';

const MAX_BALANCE_NANO = MAX_USD * NANO_PER_USD;

export type Redemption =
  | { outcome: 'credited'; codeId: number; /** nano-USD */ amount: number }
  /** Wrong, used, disabled or expired: told apart to nobody. */
  | { outcome: 'invalid' }
  | { outcome: 'user-gone' }
  /** The balance would pass what nano-USD integers hold exactly (money.ts); the code stays unused. */
  | { outcome: 'balance-too-high' };

type Refusal = Exclude<Redemption, { outcome: 'credited' | 'invalid' }>;

/** Thrown inside the transaction so that it rolls back the claim of the code. */
class RolledBack extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.outcome);
  }
}

/**
 * Redeems a code for a user (admin-api section 15) exactly once, whatever runs at the same time: one
 * statement marks the code used where it is unused, enabled and unexpired, and the credit of its
 * amount (a `redemption` credit naming the code) follows in the same transaction. Nothing is written
 * unless both are.
 */
export async function redeemCode(options: {
  store: Store;
  repositories: Pick<Repositories, 'redemptionCodes' | 'balanceCredits'>;
  userId: number;
  code: string;
}): Promise<Redemption> {
  const { redemptionCodes, balanceCredits } = options.repositories;
  const { userId } = options;
  try {
    return await options.store.db.transaction().execute(async (trx): Promise<Redemption> => {
      const hash = hashSecretCode(options.code);
      const claimed = await redemptionCodes.claim(trx, { hash, userId, now: unixNow() });
      if (!claimed) return { outcome: 'invalid' };
      const user = await trx
        .selectFrom('users')
        .select('balance')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw new RolledBack({ outcome: 'user-gone' });
      if (Number(user.balance) + claimed.amount > MAX_BALANCE_NANO)
        throw new RolledBack({ outcome: 'balance-too-high' });
      const reference = `${claimed.id}`;
      const credit = { userId, amount: claimed.amount, kind: 'redemption', reference } as const;
      if (!(await balanceCredits.credit(trx, credit))) throw new RolledBack({ outcome: 'user-gone' });
      return { outcome: 'credited', codeId: claimed.id, amount: claimed.amount };
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.refusal;
    throw error;
  }
}
