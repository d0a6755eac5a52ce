import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * PostgreSQL: `gateway_money_moves` with the windows of budgets and concurrency caps moved once
 * per batch, as users' balances are since 0006: the windows a batch touches are locked and read in
 * one statement (in key order, as before), each move checks and changes them in memory, and one
 * statement writes those that changed when the batch ends. Before, each reservation read each of
 * its windows twice and wrote it once, and each settlement wrote it again: with one budget and a
 * concurrency cap on a key, four row versions per request for the vacuum to clear, and a batch's
 * requests of one key queued on the same two rows. A window that started after a request's time is
 * skipped as 0009 does. The window check of 0008 is inlined, and its function dropped.
 */
export function windowsPerBatchMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql.raw(moneyMovesFunction).execute(db);
      await sql
        .raw('drop function if exists gateway_window_refusal(record, record, bigint, bigint, bigint)')
        .execute(db);
    },
  };
}

/** The function as this migration creates it; 0013 replaces it with a change of its own. */
export const moneyMovesFunction = `
create or replace function gateway_money_moves(moves jsonb) returns text[] language plpgsql as $$
declare
  move record;
  held record;
  w record;
  refused text;
  alert jsonb;
  -- The windows the batch touches, locked and read once in key order, written once at its end.
  win_keys text[] := '{}';
  win_start bigint[];
  win_used_usd bigint[];
  win_used_tokens bigint[];
  win_used_requests bigint[];
  win_held_usd bigint[];
  win_held_tokens bigint[];
  win_held_requests bigint[];
  win_changed boolean[];
  i integer;
  wkey text;
  fresh boolean;
  start_at bigint;
  u_usd bigint;
  u_tokens bigint;
  u_requests bigint;
  before bigint[];
  outcomes text[] := array_fill(null::text, array[jsonb_array_length(moves)]);
  this_user bigint;
  balance_read boolean;
  balance_now bigint;
  balance_change bigint;
  used_change bigint;
  key_ids bigint[];
  key_quotas bigint[];
  key_changes bigint[];
  key_used_changes bigint[];
  k integer;
  -- The lowest low_balance_alert a settlement of this user carried; null: none did.
  low_threshold bigint;
  low_row record;
  event_id text;
begin
  if moves @> '[{"budgeted": true}]' then
    insert into budget_windows (window_key, window_start)
      select distinct window_key, 0::bigint from (
        select named.value->>'key' as window_key
          from jsonb_array_elements(moves) as given(value), jsonb_array_elements(given.value->'windows') as named(value)
          where given.value->>'kind' = 'reserve' and given.value ? 'windows') as wanted
      order by window_key
      on conflict (window_key) do nothing;
    select coalesce(array_agg(locked.window_key order by locked.window_key), '{}'),
        array_agg(locked.window_start order by locked.window_key),
        array_agg(locked.used_usd order by locked.window_key),
        array_agg(locked.used_tokens order by locked.window_key),
        array_agg(locked.used_requests order by locked.window_key),
        array_agg(locked.held_usd order by locked.window_key),
        array_agg(locked.held_tokens order by locked.window_key),
        array_agg(locked.held_requests order by locked.window_key),
        array_agg(false order by locked.window_key)
      into win_keys, win_start, win_used_usd, win_used_tokens, win_used_requests, win_held_usd,
        win_held_tokens, win_held_requests, win_changed
      from (select * from budget_windows where window_key in (
          select named.value->>'key'
            from jsonb_array_elements(moves) as given(value), jsonb_array_elements(given.value->'windows') as named(value)
            where given.value->>'kind' = 'reserve' and given.value ? 'windows'
          union
          select jsonb_array_elements_text(holds.windows::jsonb) from holds
            where holds.windows is not null and holds.id in (
              select given.value->>'id' from jsonb_array_elements(moves) as given(value)
              where given.value->>'kind' = 'settle' and given.value @> '{"budgeted": true}'))
        order by window_key for update) as locked;
  end if;

  -- A last move of no user closes the last user's moves (nulls sort last).
  for move in
    select * from rows from (jsonb_to_recordset(moves || '[{"kind": "end"}]'::jsonb) as (
        kind text, id text, owner text, user_id bigint, key_id bigint, key_capped boolean, amount bigint,
        model text, endpoint text, stream boolean, created_at bigint, cost bigint, status_code integer,
        channel_id bigint, prompt_tokens bigint, completion_tokens bigint, cached_tokens bigint,
        cache_write_tokens bigint, reasoning_tokens bigint, latency_ms integer, first_byte_ms integer,
        error text, settled_at bigint, windows jsonb, budget_tokens bigint, counted boolean,
        alerts jsonb, low_balance bigint)) with ordinality as given
    order by given.user_id, given.ordinality
  loop
    if move.user_id is distinct from this_user then
      if this_user is not null then
        if balance_change <> 0 or used_change <> 0 then
          update users set balance = balance + balance_change, used = used + used_change where id = this_user;
        end if;
        if low_threshold is not null then
          select balance, low_balance_alerted into low_row from users where id = this_user;
          if (low_row.balance < low_threshold) <> low_row.low_balance_alerted then
            update users set low_balance_alerted = (low_row.balance < low_threshold) where id = this_user;
            if low_row.balance < low_threshold then
              event_id := 'evt_' || replace(gen_random_uuid()::text, '-', '');
              insert into webhook_events (id, type, body, created_at, status, attempts, next_attempt_at)
                values (event_id, 'balance.low', jsonb_build_object('id', event_id, 'type', 'balance.low',
                    'created_at', extract(epoch from now())::bigint,
                    'data', jsonb_build_object('user_id', this_user,
                      'balance', (low_row.balance / 1e9)::double precision,
                      'threshold', (low_threshold / 1e9)::double precision))::text,
                  extract(epoch from now())::bigint, 'pending', 0, (extract(epoch from now()) * 1000)::bigint);
            end if;
          end if;
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
      low_threshold := null;
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
      k := null;
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
      end if;
      if move.windows is not null then
        refused := null;
        for w in select * from rows from (jsonb_to_recordset(move.windows) as (
            key text, period text, start bigint, session_s bigint, usd bigint, tokens bigint, requests bigint))
            with ordinality as t loop
          i := array_position(win_keys, w.key);
          -- Another process has started a window after this request's time: its own has closed.
          continue when win_start[i] > move.created_at;
          if w.session_s is null then
            fresh := win_start[i] < w.start;
            start_at := case when fresh then w.start else win_start[i] end;
          else
            fresh := move.created_at >= win_start[i] + w.session_s;
            start_at := case when fresh then move.created_at else win_start[i] end;
          end if;
          if w.period = 'concurrency' then
            u_requests := case when fresh then 0 else win_held_requests[i] end;
            if w.requests is not null and u_requests + 1 > w.requests then
              refused := 'window:' || (w.ordinality - 1) || ':requests:' || start_at || ':' || u_requests;
              exit;
            end if;
            continue;
          end if;
          if fresh then
            u_usd := 0;
            u_tokens := 0;
            u_requests := 0;
          else
            u_usd := win_used_usd[i] + win_held_usd[i];
            u_tokens := win_used_tokens[i] + win_held_tokens[i];
            u_requests := win_used_requests[i] + win_held_requests[i];
          end if;
          if w.usd is not null and u_usd + move.amount > w.usd then
            refused := 'window:' || (w.ordinality - 1) || ':usd:' || start_at || ':' || u_usd;
          elsif w.tokens is not null and u_tokens + move.budget_tokens > w.tokens then
            refused := 'window:' || (w.ordinality - 1) || ':tokens:' || start_at || ':' || u_tokens;
          elsif w.requests is not null and u_requests + 1 > w.requests then
            refused := 'window:' || (w.ordinality - 1) || ':requests:' || start_at || ':' || u_requests;
          end if;
          exit when refused is not null;
        end loop;
        if refused is not null then
          outcomes[move.ordinality] := refused;
          continue;
        end if;
        for w in select * from jsonb_to_recordset(move.windows) as (key text, start bigint, session_s bigint) loop
          i := array_position(win_keys, w.key);
          continue when win_start[i] > move.created_at;
          if (w.session_s is null and win_start[i] < w.start)
              or (w.session_s is not null and move.created_at >= win_start[i] + w.session_s) then
            win_start[i] := coalesce(w.start, move.created_at);
            win_used_usd[i] := 0;
            win_used_tokens[i] := 0;
            win_used_requests[i] := 0;
            win_held_usd[i] := 0;
            win_held_tokens[i] := 0;
            win_held_requests[i] := 0;
          end if;
          win_held_usd[i] := win_held_usd[i] + move.amount;
          win_held_tokens[i] := win_held_tokens[i] + move.budget_tokens;
          win_held_requests[i] := win_held_requests[i] + 1;
          win_changed[i] := true;
        end loop;
      end if;
      if k is not null then
        key_quotas[k] := key_quotas[k] - move.amount;
        key_changes[k] := key_changes[k] - move.amount;
      end if;
      balance_now := balance_now - move.amount;
      balance_change := balance_change - move.amount;
      insert into holds (id, owner, user_id, key_id, key_capped, amount, model, endpoint, stream, created_at,
          windows, budget_tokens)
        values (move.id, move.owner, move.user_id, move.key_id, move.key_capped, move.amount, move.model,
          move.endpoint, move.stream, move.created_at,
          (select jsonb_agg(named.value->'key') from jsonb_array_elements(move.windows) as named(value))::text,
          move.budget_tokens);
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
        returning holds.user_id, holds.key_id, holds.key_capped, holds.amount, holds.created_at,
          holds.windows, holds.budget_tokens into held;
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
      if move.low_balance is not null then
        low_threshold := least(coalesce(low_threshold, move.low_balance), move.low_balance);
      end if;
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
      if held.windows is not null then
        for wkey in select jsonb_array_elements_text(held.windows::jsonb) loop
          i := array_position(win_keys, wkey);
          -- A window that started after the hold is a newer one, where the hold reserved nothing.
          continue when i is null or win_start[i] > held.created_at;
          before := array[win_used_usd[i], win_used_tokens[i], win_used_requests[i]];
          win_held_usd[i] := greatest(0, win_held_usd[i] - held.amount);
          win_held_tokens[i] := greatest(0, win_held_tokens[i] - held.budget_tokens);
          win_held_requests[i] := greatest(0, win_held_requests[i] - 1);
          win_changed[i] := true;
          continue when not move.counted;
          win_used_usd[i] := win_used_usd[i] + move.cost;
          win_used_tokens[i] := win_used_tokens[i] + move.prompt_tokens + move.completion_tokens;
          win_used_requests[i] := win_used_requests[i] + 1;
          continue when move.alerts is null;
          for alert in select value from jsonb_array_elements(move.alerts) where value->>'key' = wkey loop
            perform gateway_threshold_events(wkey, win_start[i], alert, before,
              array[win_used_usd[i], win_used_tokens[i], win_used_requests[i]], move.settled_at);
          end loop;
        end loop;
      end if;
      outcomes[move.ordinality] := 'settled';
    else
      raise exception 'unknown money move %', move.kind;
    end if;
  end loop;
  if array_length(win_keys, 1) > 0 then
    update budget_windows set window_start = given.window_start, used_usd = given.used_usd,
        used_tokens = given.used_tokens, used_requests = given.used_requests, held_usd = given.held_usd,
        held_tokens = given.held_tokens, held_requests = given.held_requests
      from unnest(win_keys, win_start, win_used_usd, win_used_tokens, win_used_requests, win_held_usd,
          win_held_tokens, win_held_requests, win_changed)
        as given(window_key, window_start, used_usd, used_tokens, used_requests, held_usd, held_tokens,
          held_requests, changed)
      where budget_windows.window_key = given.window_key and given.changed;
  end if;
  return outcomes;
end $$;
`;
