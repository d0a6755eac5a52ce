import type SqliteDatabase from 'better-sqlite3';
import { GroupCommit } from './group-commit.js';
import { INTERRUPTED, type Hold, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { toUsageLogColumns, usageLogColumnNames } from './usage-log-columns.js';

interface HoldRow {
  id: string;
  user_id: number;
  key_id: number;
  key_capped: number;
  amount: number;
  model: string;
  endpoint: string;
  stream: number;
  created_at: number;
}

/** Money moves on SQLite: prepared statements, applied by group commit. */
export function openSqliteMoneyLedger(database: SqliteDatabase.Database): MoneyLedger {
  const takeFromBalance = database.prepare(
    'update users set balance = balance - @amount where id = @userId and balance > 0 and balance >= @amount',
  );
  const takeFromQuota = database.prepare(
    'update api_keys set quota = quota - @amount where id = @keyId and quota >= @amount',
  );
  const returnToBalance = database.prepare('update users set balance = balance + @amount where id = @userId');
  const insertHold = database.prepare(
    `insert into holds (id, owner, user_id, key_id, key_capped, amount, model, endpoint, stream, created_at)
     values (@id, @owner, @userId, @keyId, @keyCapped, @amount, @model, @endpoint, @stream, @createdAt)`,
  );
  const deleteHold = database.prepare<[string], HoldRow>('delete from holds where id = ? returning *');
  const deleteHoldsOf = database.prepare<[string], HoldRow>('delete from holds where owner = ? returning *');
  const settleBalance = database.prepare(
    'update users set balance = balance + @refund, used = used + @cost where id = @userId',
  );
  const settleQuota = database.prepare(
    'update api_keys set quota = quota + @quotaRefund, used_quota = used_quota + @cost where id = @keyId',
  );
  const insertUsage = database.prepare(
    `insert into usage_logs (${usageLogColumnNames.join(', ')})
     values (${usageLogColumnNames.map((column) => `@${column}`).join(', ')})`,
  );
  const readBalance = database.prepare('select balance from users where id = ?').pluck();
  const readQuota = database.prepare('select quota from api_keys where id = ?').pluck();
  const commits = new GroupCommit(database);

  const charge = (row: HoldRow, cost: number) => {
    const refund = row.amount - cost;
    settleBalance.run({ userId: row.user_id, refund, cost });
    settleQuota.run({ keyId: row.key_id, quotaRefund: row.key_capped ? refund : 0, cost });
  };

  return {
    reserve: (hold) =>
      commits.submit(() => {
        // Inside the group's transaction: a refusal after the first take leaves nothing behind.
        if (takeFromBalance.run(hold).changes === 0) return 'balance' as const;
        if (hold.keyCapped && takeFromQuota.run(hold).changes === 0) {
          returnToBalance.run(hold);
          return 'quota' as const;
        }
        insertHold.run({ ...hold, keyCapped: Number(hold.keyCapped), stream: Number(hold.stream) });
        return 'reserved' as const;
      }),
    settle: (holdId, cost, record) =>
      commits.submit(() => {
        const row = deleteHold.get(holdId);
        if (!row) return false;
        charge(row, cost);
        insertUsage.run(toUsageLogColumns({ ...record, userId: row.user_id, keyId: row.key_id, cost }));
        return true;
      }),
    returnHolds: (owner) =>
      commits.submit(() =>
        deleteHoldsOf.all(owner).map((row): ReturnedHold => {
          charge(row, 0);
          insertUsage.run(toUsageLogColumns(interruptedRecord(row)));
          return {
            userId: row.user_id,
            keyId: row.key_id,
            keyCapped: Boolean(row.key_capped),
            amount: row.amount,
          };
        }),
      ),
    async balanceOf(userId) {
      return Number(readBalance.get(userId) ?? 0);
    },
    async quotaOf(keyId) {
      return Number(readQuota.get(keyId) ?? 0);
    },
  };
}

function interruptedRecord(row: HoldRow) {
  return {
    requestId: row.id,
    createdAt: row.created_at,
    userId: row.user_id,
    keyId: row.key_id,
    channelId: null,
    model: row.model,
    endpoint: row.endpoint,
    stream: Boolean(row.stream),
    statusCode: 0,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    latencyMs: 0,
    firstByteMs: null,
    error: INTERRUPTED,
  };
}
