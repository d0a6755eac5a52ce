import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * PostgreSQL: `gateway_money_moves` (see 0005) moves each user's balance and each key's quota once
 * per batch instead of once per move, as the SQLite ledger does per group commit: a batch's moves
 * of one user run together (they are ordered by user), the user's row is locked and read once (by
 * its first reservation), what the moves take and give back is summed, and one update per user and
 * per key is written when the next user's moves begin. Every row version an update leaves is one
 * the vacuum must clear, and the moves of a busy user in one batch made one each.
 *
 * Locks are still taken in user order, and a key's row only after its user's (a key belongs to one
 * user), so two instances applying batches at once cannot deadlock. A settlement whose hold belongs
 * to another user than the one it was ordered under fails alone, as a data exception (the batch is
 * applied again move by move).
 */
export function moneyMovesPerUserMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql
        .raw(
          `create or replace function gateway_money_moves(moves jsonb) returns text[] language plpgsql as $$
declare
  move record;
  held record;
  outcomes text[] := array_fill(null::text, array[jsonb_array_length(moves)]);
  -- The user whose moves run now, and what they moved so far; the balance as they leave it (null
  -- until a reservation reads it).
  this_user bigint;
  balance_read boolean;
  balance_now bigint;
  balance_change bigint;
  used_change bigint;
  -- The keys those moves touched, by position: the quota as read (null until a reservation
  -- reads it), what they moved of the quota and of used_quota.
  key_ids bigint[];
  key_quotas bigint[];
  key_changes bigint[];
  key_used_changes bigint[];
  k integer;
begin
  -- A last move of no user closes the last user's moves (nulls sort last).
  for move in
    select * from rows from (jsonb_to_recordset(moves || '[{"kind": "end"}]'::jsonb) as (
        kind text, id text, owner text, user_id bigint, key_id bigint, key_capped boolean, amount bigint,
        model text, endpoint text, stream boolean, created_at bigint, cost bigint, status_code integer,
        channel_id bigint, prompt_tokens bigint, completion_tokens bigint, cached_tokens bigint,
        cache_write_tokens bigint, reasoning_tokens bigint, latency_ms integer, first_byte_ms integer,
        error text, settled_at bigint)) with ordinality as given
    order by given.user_id, given.ordinality
  loop
    if move.user_id is distinct from this_user then
      if this_user is not null then
        if balance_change <> 0 or used_change <> 0 then
          update users set balance = balance + balance_change, used = used + used_change where id = this_user;
        end if;
        for k in 1 .. coalesce(array_length(key_ids, 1), 0) loop
          if key_changes[k] <> 0 or key_used_changes[k] <> 0 then
            update api_keys set quota = quota + key_changes[k], used_quota = used_quota + key_used_changes[k]
              where id = key_ids[k];
          end if;
        end loop;
      end if;
      this_user := move.user_id;
      balance_read := false;
      balance_now := null;
      balance_change := 0;
      used_change := 0;
      key_ids := '{}';
      key_quotas := '{}';
      key_changes := '{}';
      key_used_changes := '{}';
    end if;
    exit when move.kind = 'end';

    if move.kind = 'reserve' then
      if not balance_read then
        select balance + balance_change into balance_now from users where id = this_user for update;
        balance_read := true;
      end if;
      if balance_now is null or not (balance_now > 0 and balance_now >= move.amount) then
        outcomes[move.ordinality] := 'balance';
        continue;
      end if;
      if move.key_capped then
        k := array_position(key_ids, move.key_id);
        if k is null then
          key_ids := key_ids || move.key_id;
          key_quotas := key_quotas || null::bigint;
          key_changes := key_changes || 0::bigint;
          key_used_changes := key_used_changes || 0::bigint;
          k := array_length(key_ids, 1);
        end if;
        if key_quotas[k] is null then
          key_quotas[k] := (select quota from api_keys where id = move.key_id for update) + key_changes[k];
        end if;
        if key_quotas[k] is null or key_quotas[k] < move.amount then
          outcomes[move.ordinality] := 'quota';
          continue;
        end if;
        key_quotas[k] := key_quotas[k] - move.amount;
        key_changes[k] := key_changes[k] - move.amount;
      end if;
      balance_now := balance_now - move.amount;
      balance_change := balance_change - move.amount;
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
      if held.user_id <> this_user then
        raise exception 'hold % belongs to user %, not %', move.id, held.user_id, this_user
          using errcode = 'data_exception';
      end if;
      balance_now := balance_now + (held.amount - move.cost);
      balance_change := balance_change + (held.amount - move.cost);
      used_change := used_change + move.cost;
      k := array_position(key_ids, held.key_id);
      if k is null then
        key_ids := key_ids || held.key_id;
        key_quotas := key_quotas || null::bigint;
        key_changes := key_changes || 0::bigint;
        key_used_changes := key_used_changes || 0::bigint;
        k := array_length(key_ids, 1);
      end if;
      if held.key_capped then
        key_quotas[k] := key_quotas[k] + (held.amount - move.cost);
        key_changes[k] := key_changes[k] + (held.amount - move.cost);
      end if;
      key_used_changes[k] := key_used_changes[k] + move.cost;
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
