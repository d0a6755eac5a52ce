import type SqliteDatabase from 'better-sqlite3';
import { GroupBalances } from './group-balances.js';
import { GroupCommit } from './group-commit.js';
import { INTERRUPTED, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { insertInterruptedRecords, insertSettledRecords } from './hold-record-sql.js';
import type { NewUsageLog } from './usage-logs-repository.js';

/** What a money move needs of a hold. */
interface HoldRow {
  user_id: number;
  key_id: number;
  key_capped: number;
  amount: number;
}

/**
 * Money moves on SQLite: prepared statements with positional parameters (they run twice per
 * request; binding by name costs more), applied by group commit, with the balances and quotas the
 * group moves written once per user and per key (`GroupBalances`).
 */
export function openSqliteMoneyLedger(database: SqliteDatabase.Database): MoneyLedger {
  const insertHold = database.prepare(
    `insert into holds (id, owner, user_id, key_id, key_capped, amount, model, endpoint, stream, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // No `returning`: SQLite makes a temporary table for it, which cost about a twentieth of a
  // request's CPU; the settlement has the hold's figures from its reservation.
  const recordInHold = database.prepare(
    `update holds set status_code = ?, channel_id = ?, prompt_tokens = ?, completion_tokens = ?,
       cached_tokens = ?, cache_write_tokens = ?, reasoning_tokens = ?, cost = ?, latency_ms = ?,
       first_byte_ms = ?, error = ?, settled_at = ?
     where id = ? and status_code is null`,
  );
  const copySettled = database.prepare(
    insertSettledRecords('holds where owner = ? and status_code is not null'),
  );
  const copyInterrupted = database.prepare(
    insertInterruptedRecords('holds where owner = ? and status_code is null'),
  );
  const deleteSettled = database.prepare('delete from holds where owner = ? and status_code is not null');
  const deleteUnsettled = database.prepare<[string], HoldRow>(
    'delete from holds where owner = ? and status_code is null returning user_id, key_id, key_capped, amount',
  );
  const balances = new GroupBalances(database);
  const commits = new GroupCommit(database, balances);

  const storeRecords = (owner: string) => {
    const moved = copySettled.run(owner).changes;
    if (moved > 0) deleteSettled.run(owner);
    return moved;
  };

  return {
    reserve: (hold) =>
      commits.submit(() => {
        const taken = balances.take(hold);
        if (taken !== 'taken') return taken;
        insertHold.run(
          hold.id,
          hold.owner,
          hold.userId,
          hold.keyId,
          hold.keyCapped ? 1 : 0,
          hold.amount,
          hold.model,
          hold.endpoint,
          hold.stream ? 1 : 0,
          hold.createdAt,
        );
        return 'reserved' as const;
      }),
    settle: (hold, cost, record) =>
      commits.submit(() => {
        // Updated only while unsettled: a settlement repeated, or raced by a return, moves nothing.
        if (recordInHold.run(...holdRecordValues(record, cost), hold.id).changes === 0) return false;
        balances.charge(hold, cost);
        return true;
      }),
    storeRecords: (owner) => commits.submit(() => storeRecords(owner)),
    returnHolds: (owner) =>
      commits.submit(() => {
        storeRecords(owner);
        copyInterrupted.run(INTERRUPTED, owner);
        return deleteUnsettled.all(owner).map((row) => {
          const returned: ReturnedHold = {
            userId: row.user_id,
            keyId: row.key_id,
            keyCapped: Boolean(row.key_capped),
            amount: row.amount,
          };
          balances.charge(returned, 0);
          return returned;
        });
      }),
    balanceOf: async (userId) => balances.balanceOf(userId),
    quotaOf: async (keyId) => balances.quotaOf(keyId),
  };
}

/** The settlement's parameters, in the order of its `set`. */
function holdRecordValues(record: NewUsageLog, cost: number): unknown[] {
  return [
    record.statusCode,
    record.channelId,
    record.promptTokens,
    record.completionTokens,
    record.cachedTokens,
    record.cacheWriteTokens,
    record.reasoningTokens,
    cost,
    record.latencyMs,
    record.firstByteMs,
    record.error,
    record.createdAt,
  ];
}
