import type { Kysely } from 'kysely';
import type { Hold, MoneyLedger } from './money-ledger.js';
import { preparedSql } from './prepared-sql.js';
import type { Database } from './schema.js';

class QuotaRefused extends Error {}

const takeFromBalance = preparedSql(
  'postgres',
  'update users set balance = balance - ?::bigint where id = ? and balance > 0 and balance >= ?::bigint',
);
const takeFromQuota = preparedSql(
  'postgres',
  'update api_keys set quota = quota - ?::bigint where id = ? and quota >= ?::bigint',
);
// A data-modifying WITH runs exactly once, so both rows change in one atomic statement.
const settleBoth = preparedSql(
  'postgres',
  `with charged as (update users set balance = balance + ?::bigint, used = used + ?::bigint where id = ?)
   update api_keys set quota = quota + (case when ?::boolean then ?::bigint else 0 end),
     used_quota = used_quota + ?::bigint where id = ?`,
);
const readBalance = preparedSql('postgres', 'select balance from users where id = ?');
const readQuota = preparedSql('postgres', 'select quota from api_keys where id = ?');

export function openPostgresMoneyLedger(db: Kysely<Database>): MoneyLedger {
  const changed = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) > 0;
  const readNumber = async (query: ReturnType<typeof readBalance>, column: string) => {
    const { rows } = await db.executeQuery<Record<string, unknown>>(query);
    return Number(rows[0]?.[column] ?? 0);
  };
  const settle = async (hold: Hold, cost: number) => {
    const refund = hold.amount - cost;
    await db.executeQuery(settleBoth(refund, cost, hold.userId, hold.keyCapped, refund, cost, hold.keyId));
  };

  return {
    async reserve(hold) {
      const { amount } = hold;
      if (!hold.keyCapped) {
        return changed(await db.executeQuery(takeFromBalance(amount, hold.userId, amount)))
          ? 'reserved'
          : 'balance';
      }
      try {
        return await db.transaction().execute(async (transaction) => {
          if (!changed(await transaction.executeQuery(takeFromBalance(amount, hold.userId, amount))))
            return 'balance';
          if (!changed(await transaction.executeQuery(takeFromQuota(amount, hold.keyId, amount)))) {
            throw new QuotaRefused();
          }
          return 'reserved';
        });
      } catch (error) {
        if (error instanceof QuotaRefused) return 'quota';
        throw error;
      }
    },
    settle,
    release: (hold) => settle(hold, 0),
    balanceOf: (userId) => readNumber(readBalance(userId), 'balance'),
    quotaOf: (keyId) => readNumber(readQuota(keyId), 'quota'),
  };
}
