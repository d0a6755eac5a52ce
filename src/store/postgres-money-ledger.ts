import type { Kysely } from 'kysely';
import { INTERRUPTED, type MoneyLedger, type ReturnedHold } from './money-ledger.js';
import { preparedSql } from './prepared-sql.js';
import type { Database } from './schema.js';
import { insertInterruptedRecords, insertSettledRecords } from './hold-record-sql.js';
import {
  PostgresMoneyMoves,
  reserveOutcome,
  storableText,
  type ReserveMove,
  type SettleMove,
} from './postgres-money-moves.js';
import type { HoldBudget } from '../billing/budgets/window-charge.js';
import type { LoggedBody } from './usage-log-bodies-repository.js';

const storeSettled = preparedSql(
  'postgres',
  `with done as (delete from holds where owner = ? and status_code is not null returning *),
   logged as (${insertSettledRecords('done')})
   select count(*)::integer as stored from done`,
);

const insertBodies = preparedSql(
  'postgres',
  `insert into usage_log_bodies (request_id, created_at, request_body, response_body, truncated)
   select * from unnest(?::text[], ?::bigint[], ?::text[], ?::text[], ?::boolean[])
   on conflict (request_id) do nothing`,
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
   per_window as (select w.window_key, sum(held.amount) as usd, sum(held.budget_tokens) as tokens,
       count(*) as requests
     from held cross join lateral jsonb_array_elements_text(held.windows::jsonb) as named(window_key)
     join budget_windows w on w.window_key = named.window_key and w.window_start <= held.created_at
     group by w.window_key),
   released as (update budget_windows set held_usd = greatest(0, held_usd - per_window.usd),
       held_tokens = greatest(0, held_tokens - per_window.tokens),
       held_requests = greatest(0, held_requests - per_window.requests)
     from per_window where budget_windows.window_key = per_window.window_key),
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

  const storeRecords = async (owner: string, bodies: readonly LoggedBody[] = []) => {
    if (bodies.length > 0) await db.executeQuery(insertBodies(...bodyColumns(bodies)));
    const { rows } = await db.executeQuery<{ stored: number }>(storeSettled(owner));
    return rows[0]?.stored ?? 0;
  };

  return {
    reserve: async (hold) =>
      reserveOutcome(
        await moves.submit({
          kind: 'reserve',
          id: hold.id,
          owner: hold.owner,
          user_id: hold.userId,
          key_id: hold.keyId,
          key_capped: hold.keyCapped,
          amount: hold.amount,
          model: storableText(hold.model),
          ...(hold.requestedModel !== undefined && { requested_model: storableText(hold.requestedModel) }),
          endpoint: hold.endpoint,
          stream: hold.stream,
          created_at: hold.createdAt,
          ...(hold.budget && budgetOfReservation(hold.budget)),
        } satisfies ReserveMove),
      ),
    async settle(hold, cost, record, counted = true) {
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
        // Left out of the batch's JSON when absent: the function reads a missing member as null.
        audio_seconds: record.audioSeconds ?? undefined,
        characters: record.characters ?? undefined,
        ...(record.model !== hold.model && { model: storableText(record.model) }),
        ...(hold.budget && budgetOfSettlement(hold.budget, counted)),
        ...(hold.lowBalanceAlert !== undefined && { low_balance: hold.lowBalanceAlert }),
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

/** A reservation's windows, as the function reads them. */
function budgetOfReservation(
  budget: HoldBudget,
): Pick<ReserveMove, 'budgeted' | 'windows' | 'budget_tokens'> {
  return {
    budgeted: true,
    budget_tokens: budget.tokens,
    windows: budget.windows.map((window) => ({
      key: window.key,
      period: window.period,
      start: window.start,
      session_s: window.sessionSeconds,
      usd: window.usd,
      tokens: window.tokens,
      requests: window.requests,
    })),
  };
}

/** What a settlement of a hold with windows adds: whether it counts, and the windows' alerts. */
function budgetOfSettlement(
  budget: HoldBudget,
  counted: boolean,
): Pick<SettleMove, 'budgeted' | 'counted' | 'alerts'> {
  const alerting = budget.events ? budget.windows.filter((window) => window.alertAt.length > 0) : [];
  return {
    budgeted: true,
    counted,
    ...(alerting.length > 0 && {
      alerts: alerting.map((window) => ({
        key: window.key,
        scope: window.scope,
        owner: window.owner,
        period: window.period,
        end: window.end,
        session_s: window.sessionSeconds,
        usd: window.usd,
        tokens: window.tokens,
        requests: window.requests,
        at: window.alertAt,
      })),
    }),
  };
}

/** Bodies as the columns `unnest` reads: one array per column, text PostgreSQL can store. */
function bodyColumns(bodies: readonly LoggedBody[]): unknown[] {
  const storable = (text: string | null) => (text === null ? null : storableText(text));
  return [
    bodies.map((body) => body.requestId),
    bodies.map((body) => body.createdAt),
    bodies.map((body) => storable(body.requestBody)),
    bodies.map((body) => storable(body.responseBody)),
    bodies.map((body) => body.truncated),
  ];
}
