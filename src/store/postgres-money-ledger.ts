import type { Kysely } from 'kysely';
import { INTERRUPTED, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { preparedSql } from './prepared-sql.js';
import type { Database } from './schema.js';
import { insertInterruptedRecords, insertSettledRecords } from './hold-record-sql.js';
import {
  PostgresMoneyMoves,
  storableText,
  type ReserveMove,
  type SettleMove,
} from './postgres-money-moves.js';

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

/**
 * Money moves on PostgreSQL: reservations and settlements are group-committed through the
 * `gateway_money_moves` function (see postgres-money-moves.ts); the rarer moves are single
 * statements.
 */
export function openPostgresMoneyLedger(db: Kysely<Database>): MoneyLedger {
  const readNumber = async (query: ReturnType<typeof readBalance>, column: string) => {
    const { rows } = await db.executeQuery<Record<string, unknown>>(query);
    return Number(rows[0]?.[column] ?? 0);
  };
  const moves = new PostgresMoneyMoves(db);

  const storeRecords = async (owner: string) => {
    const { rows } = await db.executeQuery<{ stored: number }>(storeSettled(owner));
    return rows[0]?.stored ?? 0;
  };

  return {
    reserve: (hold) =>
      moves.submit({
        kind: 'reserve',
        id: hold.id,
        owner: hold.owner,
        user_id: hold.userId,
        key_id: hold.keyId,
        key_capped: hold.keyCapped,
        amount: hold.amount,
        model: storableText(hold.model),
        endpoint: hold.endpoint,
        stream: hold.stream,
        created_at: hold.createdAt,
      } satisfies ReserveMove),
    async settle(hold, cost, record) {
      const outcome = await moves.submit({
        kind: 'settle',
        id: hold.id,
        user_id: hold.userId,
        cost,
        status_code: record.statusCode,
        channel_id: record.channelId,
        prompt_tokens: record.promptTokens,
        completion_tokens: record.completionTokens,
        cached_tokens: record.cachedTokens,
        cache_write_tokens: record.cacheWriteTokens,
        reasoning_tokens: record.reasoningTokens,
        latency_ms: record.latencyMs,
        first_byte_ms: record.firstByteMs,
        error: record.error === null ? null : storableText(record.error),
        settled_at: record.createdAt,
      } satisfies SettleMove);
      return outcome === 'settled';
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
