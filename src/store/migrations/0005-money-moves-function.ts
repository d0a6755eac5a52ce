import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * PostgreSQL: the per-request money moves (reservations and settlements) as one function, so that
 * the moves many concurrent requests submit together travel in one round trip and commit in one
 * transaction (see postgres-money-moves.ts). Each move does what the SQLite ledger does with its
 * prepared statements, in the same order. Moves are applied ordered by user, so that two instances
 * applying batches at once lock users' rows in the same order and cannot deadlock on them; the
 * moves of one user keep their order. Returns one outcome per move, in the order given:
 * `reserved`, `balance` or `quota` (which refused) for a reservation, `settled` or `gone` (the hold
 * was settled or returned already) for a settlement.
 *
 * SQLite needs nothing: its ledger runs the same statements in the process.
 */
export function moneyMovesFunctionMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create function gateway_money_moves(moves jsonb) returns text[] language plpgsql as $$
declare
  move record;
  held record;
  outcomes text[] := array_fill(null::text, array[jsonb_array_length(moves)]);
begin
  for move in
    select * from rows from (jsonb_to_recordset(moves) as (
        kind text, id text, owner text, user_id bigint, key_id bigint, key_capped boolean, amount bigint,
        model text, endpoint text, stream boolean, created_at bigint, cost bigint, status_code integer,
        channel_id bigint, prompt_tokens bigint, completion_tokens bigint, cached_tokens bigint,
        cache_write_tokens bigint, reasoning_tokens bigint, latency_ms integer, first_byte_ms integer,
        error text, settled_at bigint)) with ordinality as given
    order by given.user_id, given.ordinality
  loop
    if move.kind = 'reserve' then
      update users set balance = balance - move.amount
        where id = move.user_id and balance > 0 and balance >= move.amount;
      if not found then
        outcomes[move.ordinality] := 'balance';
        continue;
      end if;
      if move.key_capped then
        update api_keys set quota = quota - move.amount where id = move.key_id and quota >= move.amount;
        if not found then
          update users set balance = balance + move.amount where id = move.user_id;
          outcomes[move.ordinality] := 'quota';
          continue;
        end if;
      end if;
      insert into holds (id, owner, user_id, key_id, key_capped, amount, model, endpoint, stream, created_at)
        values (move.id, move.owner, move.user_id, move.key_id, move.key_capped, move.amount, move.model,
          move.endpoint, move.stream, move.created_at);
      outcomes[move.ordinality] := 'reserved';
    elsif move.kind = 'settle' then
      -- Filling the hold's record is what makes the move happen once: a repeat, or a racing
      -- recovery, finds no hold left to fill (or none at all).
      update holds set status_code = move.status_code, channel_id = move.channel_id,
          prompt_tokens = move.prompt_tokens, completion_tokens = move.completion_tokens,
          cached_tokens = move.cached_tokens, cache_write_tokens = move.cache_write_tokens,
          reasoning_tokens = move.reasoning_tokens, cost = move.cost, latency_ms = move.latency_ms,
          first_byte_ms = move.first_byte_ms, error = move.error, settled_at = move.settled_at
        where id = move.id and status_code is null
        returning holds.user_id, holds.key_id, holds.key_capped, holds.amount into held;
      if not found then
        outcomes[move.ordinality] := 'gone';
        continue;
      end if;
      update users set balance = balance + (held.amount - move.cost), used = used + move.cost
        where id = held.user_id;
      update api_keys set
          quota = quota + (case when held.key_capped then held.amount - move.cost else 0 end),
          used_quota = used_quota + move.cost
        where id = held.key_id;
      outcomes[move.ordinality] := 'settled';
    else
      raise exception 'unknown money move %', move.kind;
    end if;
  end loop;
  return outcomes;
end $$`,
        )
        .execute(db);
    },
  };
}
