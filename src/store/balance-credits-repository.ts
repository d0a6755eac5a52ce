import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { BalanceCreditsTable, Database } from './schema.js';
import { alertedUnlessAbove } from './users-repository.js';

/** Where money put into a balance came from (admin-api section 15). */
export type CreditKind = 'admin' | 'signup' | 'redemption' | 'topup';

export interface BalanceCredit {
  id: number;
  userId: number;
  /** nano-USD */
  amount: number;
  kind: CreditKind;
  /** What the credit came from: a redemption code's or an order's id; null for an admin's or the sign-up's. */
  reference: string | null;
  createdAt: number;
}

export type NewBalanceCredit = Omit<BalanceCredit, 'id' | 'createdAt'>;

/**
 * Credits to user balances, each a rise of the balance and a row that explains it, written
 * together. `credit` takes the transaction of the caller, which decides in it that the credit is
 * due (a code marked used, an order marked paid), so that the decision and the money move commit
 * or roll back as one.
 */
export class BalanceCreditsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the amount to the user's balance and records it; false when the user is gone. */
  async credit(trx: Transaction<Database> | Kysely<Database>, credit: NewBalanceCredit): Promise<boolean> {
    const updated = await trx
      .updateTable('users')
      .set((eb) => ({
        balance: eb('balance', '+', credit.amount),
        low_balance_alerted: alertedUnlessAbove(
          sql`balance + cast(${credit.amount} as bigint)`,
          sql.ref('low_balance_alert'),
        ),
      }))
      .where('id', '=', credit.userId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('balance_credits')
      .values({
        user_id: credit.userId,
        amount: credit.amount,
        kind: credit.kind,
        reference: credit.reference,
        created_at: Math.floor(Date.now() / 1000),
      })
      .execute();
    return true;
  }

  /** One user's credits, newest first. */
  async listForUser(userId: number, page: { limit: number; offset: number }): Promise<BalanceCredit[]> {
    const rows = await this.db
      .selectFrom('balance_credits')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toCredit);
  }
}

function toCredit(row: Selectable<BalanceCreditsTable>): BalanceCredit {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    amount: Number(row.amount),
    kind: row.kind as CreditKind,
    reference: row.reference,
    createdAt: Number(row.created_at),
  };
}
