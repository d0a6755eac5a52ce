import type { Kysely } from 'kysely';
import { INTERRUPTED, type Hold, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { preparedSql } from './prepared-sql.js';
import type { Database } from './schema.js';
import {
  holdRecordValues,
  insertInterruptedRecords,
  insertSettledRecords,
  recordIntoHold,
} from './hold-record-sql.js';

class QuotaRefused extends Error {}

const holdColumns = 'id, owner, user_id, key_id, key_capped, amount, model, endpoint, stream, created_at';
const holdValues = '?, ?, ?, ?, ?::boolean, ?::bigint, ?, ?, ?::boolean, ?::bigint';

// A data-modifying WITH runs exactly once: the take and the hold land together or not at all.
const takeBalanceWithHold = preparedSql(
  'postgres',
  `with taken as (update users set balance = balance - ?::bigint
     where id = ? and balance > 0 and balance >= ?::bigint returning id)
   insert into holds (${holdColumns}) select ${holdValues} from taken`,
);
const takeFromBalance = preparedSql(
  'postgres',
  'update users set balance = balance - ?::bigint where id = ? and balance > 0 and balance >= ?::bigint',
);
const takeFromQuota = preparedSql(
  'postgres',
  'update api_keys set quota = quota - ?::bigint where id = ? and quota >= ?::bigint',
);
const insertHold = preparedSql('postgres', `insert into holds (${holdColumns}) values (${holdValues})`);

// Filling the hold's record is what makes the move happen once: a repeat, or a racing recovery,
// finds no hold left to fill (or none at all).
const settleHold = preparedSql(
  'postgres',
  `with held as (update holds set ${recordIntoHold('postgres')}
     where id = ? and status_code is null returning user_id, key_id, key_capped, amount),
   charged as (update users set balance = balance + (held.amount - ?::bigint), used = used + ?::bigint
     from held where users.id = held.user_id),
   counted as (update api_keys set
       quota = quota + (case when held.key_capped then held.amount - ?::bigint else 0 end),
       used_quota = used_quota + ?::bigint
     from held where api_keys.id = held.key_id)
   select count(*)::integer as settled from held`,
);

const storeSettled = preparedSql(
  'postgres',
  `with done as (delete from holds where owner = ? and status_code is not null returning *),
   logged as (${insertSettledRecords('done')})
   select count(*)::integer as stored from done`,
);

const returnHoldsOf = preparedSql(
  'postgres',
  `with held as (delete from holds where owner = ? and status_code is null returning *),
   per_user as (select user_id, sum(amount) as total from held group by user_id),
   per_key as (select key_id, sum(amount) as total from held where key_capped group by key_id),
   refunded as (update users set balance = balance + per_user.total
     from per_user where users.id = per_user.user_id),
   restored as (update api_keys set quota = quota + per_key.total
     from per_key where api_keys.id = per_key.key_id),
   logged as (${insertInterruptedRecords('held')})
   select user_id, key_id, key_capped, amount from held`,
);

const readBalance = preparedSql('postgres', 'select balance from users where id = ?');
const readQuota = preparedSql('postgres', 'select quota from api_keys where id = ?');

export function openPostgresMoneyLedger(db: Kysely<Database>): MoneyLedger {
  const changed = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) > 0;
  const readNumber = async (query: ReturnType<typeof readBalance>, column: string) => {
    const { rows } = await db.executeQuery<Record<string, unknown>>(query);
    return Number(rows[0]?.[column] ?? 0);
  };
  const holdParameters = (hold: Hold) => [
    hold.id,
    hold.owner,
    hold.userId,
    hold.keyId,
    hold.keyCapped,
    hold.amount,
    hold.model,
    hold.endpoint,
    hold.stream,
    hold.createdAt,
  ];

  const storeRecords = async (owner: string) => {
    const { rows } = await db.executeQuery<{ stored: number }>(storeSettled(owner));
    return rows[0]?.stored ?? 0;
  };

  return {
    async reserve(hold) {
      const { amount } = hold;
      if (!hold.keyCapped) {
        const taken = await db.executeQuery(
          takeBalanceWithHold(amount, hold.userId, amount, ...holdParameters(hold)),
        );
        return changed(taken) ? 'reserved' : 'balance';
      }
      try {
        return await db.transaction().execute(async (transaction) => {
          if (!changed(await transaction.executeQuery(takeFromBalance(amount, hold.userId, amount))))
            return 'balance';
          if (!changed(await transaction.executeQuery(takeFromQuota(amount, hold.keyId, amount))))
            throw new QuotaRefused();
          await transaction.executeQuery(insertHold(...holdParameters(hold)));
          return 'reserved';
        });
      } catch (error) {
        if (error instanceof QuotaRefused) return 'quota';
        throw error;
      }
    },
    async settle(holdId, cost, record) {
      const { rows } = await db.executeQuery<{ settled: number }>(
        settleHold(...holdRecordValues(record, cost), holdId, cost, cost, cost, cost),
      );
      return (rows[0]?.settled ?? 0) > 0;
    },
    storeRecords,
    async returnHolds(owner) {
      await storeRecords(owner);
      const { rows } = await db.executeQuery<{
        user_id: number;
        key_id: number;
        key_capped: boolean;
        amount: number;
      }>(returnHoldsOf(owner, INTERRUPTED));
      return rows.map((row): ReturnedHold => ({
        userId: Number(row.user_id),
        keyId: Number(row.key_id),
        keyCapped: row.key_capped,
        amount: Number(row.amount),
      }));
    },
    balanceOf: (userId) => readNumber(readBalance(userId), 'balance'),
    quotaOf: (keyId) => readNumber(readQuota(keyId), 'quota'),
  };
}
