import type SqliteDatabase from 'better-sqlite3';
import { GroupBalances } from './group-balances.js';
import { GroupCommit } from './group-commit.js';
import { GroupWindows, type WindowHold } from './group-windows.js';
import { LowBalanceWatch } from './low-balance-watch.js';
import { INTERRUPTED, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { insertInterruptedRecords, insertSettledRecords } from './hold-record-sql.js';
import type { LoggedBody } from './usage-log-bodies-repository.js';
import type { NewUsageLog } from './usage-logs-repository.js';
import { thresholdEvent } from '../events/webhooks/budget-events.js';
import type { WebhookEvent } from '../events/webhooks/webhook-event.js';

/** What a money move needs of a hold. */
interface HoldRow {
  user_id: number;
  key_id: number;
  key_capped: number;
  amount: number;
  created_at: number;
  windows: string | null;
  budget_tokens: number | null;
}

/**
 * Money moves on SQLite: prepared statements with positional parameters (they run twice per
 * request; binding by name costs more), applied by group commit, with the balances and quotas the
 * group moves written once per user and per key (`GroupBalances`).
 */
export function openSqliteMoneyLedger(database: SqliteDatabase.Database): MoneyLedger {
  const insertHold = database.prepare(
    `insert into holds (id, owner, user_id, key_id, key_capped, amount, model, requested_model, endpoint,
       stream, created_at, windows, budget_tokens)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // No `returning`: SQLite makes a temporary table for it, which cost about a twentieth of a
  // request's CPU; the settlement has the hold's figures from its reservation.
  const recordInHold = database.prepare(
    `update holds set status_code = ?, channel_id = ?, prompt_tokens = ?, completion_tokens = ?,
       cached_tokens = ?, cache_write_tokens = ?, reasoning_tokens = ?, cost = ?, latency_ms = ?,
       first_byte_ms = ?, error = ?, settled_at = ?, audio_seconds = ?, characters = ?
     where id = ? and status_code is null`,
  );
  const retargetHold = database.prepare(
    `update holds set model = ?, requested_model = coalesce(requested_model, model)
     where id = ? and status_code is null`,
  );
  const copySettled = database.prepare(
    insertSettledRecords('holds where owner = ? and status_code is not null'),
  );
  const copyInterrupted = database.prepare(
    insertInterruptedRecords('holds where owner = ? and status_code is null'),
  );
  const deleteSettled = database.prepare('delete from holds where owner = ? and status_code is not null');
  const insertBody = database.prepare(
    `insert into usage_log_bodies (request_id, created_at, request_body, response_body, truncated)
     values (?, ?, ?, ?, ?) on conflict (request_id) do nothing`,
  );
  const deleteUnsettled = database.prepare<[string], HoldRow>(
    `delete from holds where owner = ? and status_code is null
     returning user_id, key_id, key_capped, amount, created_at, windows, budget_tokens`,
  );
  const insertEvent = database.prepare(
    `insert into webhook_events (id, type, body, created_at, status, attempts, next_attempt_at)
     values (?, ?, ?, ?, 'pending', 0, ?) on conflict (id) do nothing`,
  );
  const storeEvent = (event: WebhookEvent) =>
    insertEvent.run(event.id, event.type, event.body, event.createdAt, event.createdAt * 1000);
  const balances = new GroupBalances(database);
  const windows = new GroupWindows(database);
  const lowBalances = new LowBalanceWatch(database, storeEvent);
  const commits = new GroupCommit(database, {
    begin() {
      balances.begin();
      windows.begin();
      lowBalances.begin();
    },
    write() {
      balances.write();
      windows.write();
      lowBalances.write();
    },
  });

  const storeRecords = (owner: string, bodies: readonly LoggedBody[] = []) => {
    for (const body of bodies)
      insertBody.run(
        body.requestId,
        body.createdAt,
        body.requestBody,
        body.responseBody,
        body.truncated ? 1 : 0,
      );
    const moved = copySettled.run(owner).changes;
    if (moved > 0) deleteSettled.run(owner);
    return moved;
  };

  return {
    reserve: (hold) =>
      commits.submit(() => {
        const taken = balances.take(hold);
        if (taken !== 'taken') return taken;
        const { budget } = hold;
        if (budget) {
          const reserved = windowHold(hold.amount, budget.tokens, hold.createdAt);
          const refusal = windows.refusal(budget.windows, reserved);
          if (refusal) {
            balances.charge(hold, 0); // gives back what `take` took
            return refusal;
          }
          windows.reserve(budget.windows, reserved);
        }
        insertHold.run(
          hold.id,
          hold.owner,
          hold.userId,
          hold.keyId,
          hold.keyCapped ? 1 : 0,
          hold.amount,
          hold.model,
          hold.requestedModel ?? null,
          hold.endpoint,
          hold.stream ? 1 : 0,
          hold.createdAt,
          budget ? JSON.stringify(budget.windows.map((window) => window.key)) : null,
          budget ? budget.tokens : null,
        );
        return 'reserved' as const;
      }),
    settle: (hold, cost, record, counted = true) =>
      commits.submit(() => {
        if (record.model !== hold.model) retargetHold.run(record.model, hold.id);
        // Updated only while unsettled: a settlement repeated, or raced by a return, moves nothing.
        if (recordInHold.run(...holdRecordValues(record, cost), hold.id).changes === 0) return false;
        balances.charge(hold, cost);
        if (hold.lowBalanceAlert !== undefined) lowBalances.watch(hold.userId, hold.lowBalanceAlert);
        const { budget } = hold;
        if (budget) {
          const usage = counted ? { cost, tokens: record.promptTokens + record.completionTokens } : null;
          const reserved = windowHold(hold.amount, budget.tokens, hold.createdAt);
          for (const crossing of windows.settle(budget.windows, reserved, usage, budget.events))
            storeEvent(thresholdEvent(crossing, record.createdAt));
        }
        return true;
      }),
    storeRecords: (owner, bodies) => commits.submit(() => storeRecords(owner, bodies)),
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
          if (row.windows !== null) {
            const reserved = windowHold(row.amount, Number(row.budget_tokens), row.created_at);
            windows.release(JSON.parse(row.windows) as string[], reserved);
          }
          return returned;
        });
      }),
    balanceOf: async (userId) => balances.balanceOf(userId),
    quotaOf: async (keyId) => balances.quotaOf(keyId),
  };
}

function windowHold(amount: number, tokens: number, createdAt: number): WindowHold {
  return { amount, tokens, createdAt };
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
    record.audioSeconds ?? null,
    record.characters ?? null,
  ];
}
