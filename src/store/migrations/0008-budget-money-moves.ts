import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * PostgreSQL: `gateway_money_moves` (see 0005 and 0006) with the windows of budgets and
 * concurrency caps (admin-api section 10), as the SQLite ledger moves them (group-windows.ts).
 *
 * A reservation that carries `windows` is checked against each of them after the balance and the
 * key's quota, and reserves in all of them or none. A settlement gives back what its hold reserved
 * in each window that is still the one it reserved in (one that started after the hold is a newer
 * window) and, when `counted`, counts the cost, the tokens and the request there; a window it
 * brings past one of its `alerts` fractions stores a `budget.threshold` event, whose id is the
 * occurrence's, so the event is decided once whoever decides it.
 *
 * Window rows are shared by the users of a group, so a batch that touches windows locks all of
 * them first, in key order, before any user's row: two batches then never hold a window and a
 * user each while waiting for the other's.
 *
 * A settlement that carries the user's `low_balance` threshold decides the `balance.low` event
 * once the user's balance is written: sent when the balance is below it and none was sent since
 * it last stood at or above it.
 *
 * A refusal by a window is `window:<index>:<dimension>:<window start>:<usage>`.
 */
export function budgetMoneyMovesMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql.raw(budgetWindowFunctions).execute(db);
      await sql.raw(moneyMovesFunction).execute(db);
    },
  };
}

const budgetWindowFunctions = `
create or replace function gateway_threshold_events(
    window_key text, window_start bigint, alert jsonb, before bigint[], after bigint[], now_s bigint)
  returns void language plpgsql as $$
declare
  dims text[] := array['usd', 'tokens', 'requests'];
  limits bigint[] := array[(alert->>'usd')::bigint, (alert->>'tokens')::bigint, (alert->>'requests')::bigint];
  d integer;
  fraction numeric;
  mark numeric;
  occurrence text;
  event_id text;
  figure_used double precision;
  figure_limit double precision;
  is_total boolean := alert->>'period' = 'total';
begin
  for d in 1 .. 3 loop
    continue when limits[d] is null;
    for fraction in select value::numeric from jsonb_array_elements_text(alert->'at') loop
      mark := fraction * limits[d];
      continue when not (before[d] < mark and after[d] >= mark);
      occurrence := window_key || '|' || window_start || '|' || dims[d] || '|' || (fraction::double precision)::text;
      event_id := 'evt_' || left(encode(sha256(convert_to('budget.threshold|' || occurrence, 'UTF8')), 'hex'), 32);
      figure_used := case when d = 1 then after[d] / 1e9 else after[d] end;
      figure_limit := case when d = 1 then limits[d] / 1e9 else limits[d] end;
      insert into webhook_events (id, type, body, created_at, status, attempts, next_attempt_at)
        values (event_id, 'budget.threshold', jsonb_build_object(
            'id', event_id, 'type', 'budget.threshold', 'created_at', now_s,
            'data', jsonb_build_object(
              'scope', alert->>'scope', 'id', alert->'owner', 'period', alert->>'period',
              'window_start', case when is_total then null else window_start end,
              'dimension', dims[d], 'threshold', fraction::double precision,
              'used', figure_used, 'limit', figure_limit,
              'resets_at', case when is_total then null
                else coalesce((alert->>'end')::bigint, window_start + (alert->>'session_s')::bigint) end))::text,
          now_s, 'pending', 0, now_s * 1000)
        on conflict (id) do nothing;
    end loop;
  end loop;
end $$;

create or replace function gateway_window_refusal(
    w record, win record, amount bigint, tokens bigint, now_s bigint, out refusal text, out fresh boolean,
    out start bigint)
  language plpgsql as $$
declare
  used_usd bigint := win.used_usd + win.held_usd;
  used_tokens bigint := win.used_tokens + win.held_tokens;
  used_requests bigint := win.used_requests + win.held_requests;
begin
  if w.session_s is null then
    fresh := win.window_start < w.start;
    start := case when fresh then w.start else win.window_start end;
  else
    fresh := now_s >= win.window_start + w.session_s;
    start := case when fresh then now_s else win.window_start end;
  end if;
  if fresh then
    used_usd := 0;
    used_tokens := 0;
    used_requests := 0;
  end if;
  if w.period = 'concurrency' then
    if w.requests is not null and (case when fresh then 0 else win.held_requests end) + 1 > w.requests then
      refusal := 'requests:' || start || ':' || (case when fresh then 0 else win.held_requests end);
    end if;
  elsif w.usd is not null and used_usd + amount > w.usd then
    refusal := 'usd:' || start || ':' || used_usd;
  elsif w.tokens is not null and used_tokens + tokens > w.tokens then
    refusal := 'tokens:' || start || ':' || used_tokens;
  elsif w.requests is not null and used_requests + 1 > w.requests then
    refusal := 'requests:' || start || ':' || used_requests;
  end if;
end $$;
`;

/** The function as this migration creates it; 0009 replaces it with a change of its own. */
export const moneyMovesFunction = `
create or replace function gateway_money_moves(moves jsonb) returns text[] language plpgsql as $$
declare
  move record;
  held record;
  w record;
  win record;
  verdict record;
  refused text;
  alert jsonb;
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
    perform 1 from budget_windows where window_key in (
        select named.value->>'key'
          from jsonb_array_elements(moves) as given(value), jsonb_array_elements(given.value->'windows') as named(value)
          where given.value->>'kind' = 'reserve' and given.value ? 'windows'
        union
        select jsonb_array_elements_text(holds.windows::jsonb) from holds
          where holds.windows is not null and holds.id in (
            select given.value->>'id' from jsonb_array_elements(moves) as given(value)
            where given.value->>'kind' = 'settle' and given.value @> '{"budgeted": true}'))
      order by window_key for update;
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
          select * into win from budget_windows where window_key = w.key;
          verdict := gateway_window_refusal(w, win, move.amount, move.budget_tokens, move.created_at);
          if verdict.refusal is not null then
            refused := 'window:' || (w.ordinality - 1) || ':' || verdict.refusal;
            exit;
          end if;
        end loop;
        if refused is not null then
          outcomes[move.ordinality] := refused;
          continue;
        end if;
        for w in select * from jsonb_to_recordset(move.windows) as (
            key text, period text, start bigint, session_s bigint, usd bigint, tokens bigint, requests bigint) loop
          select * into win from budget_windows where window_key = w.key;
          verdict := gateway_window_refusal(w, win, move.amount, move.budget_tokens, move.created_at);
          if verdict.fresh then
            update budget_windows set window_start = verdict.start, used_usd = 0, used_tokens = 0,
                used_requests = 0, held_usd = move.amount, held_tokens = move.budget_tokens, held_requests = 1
              where window_key = w.key;
          else
            update budget_windows set held_usd = held_usd + move.amount,
                held_tokens = held_tokens + move.budget_tokens, held_requests = held_requests + 1
              where window_key = w.key;
          end if;
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
        for win in
          update budget_windows set held_usd = greatest(0, held_usd - held.amount),
              held_tokens = greatest(0, held_tokens - held.budget_tokens),
              held_requests = greatest(0, held_requests - 1),
              used_usd = used_usd + case when move.counted then move.cost else 0 end,
              used_tokens = used_tokens + case when move.counted
                then move.prompt_tokens + move.completion_tokens else 0 end,
              used_requests = used_requests + case when move.counted then 1 else 0 end
            where window_key in (select jsonb_array_elements_text(held.windows::jsonb))
              and window_start <= held.created_at
            returning *
        loop
          continue when not move.counted or move.alerts is null;
          for alert in select value from jsonb_array_elements(move.alerts) where value->>'key' = win.window_key loop
            perform gateway_threshold_events(win.window_key, win.window_start, alert,
              array[win.used_usd - move.cost, win.used_tokens - move.prompt_tokens - move.completion_tokens,
                win.used_requests - 1],
              array[win.used_usd, win.used_tokens, win.used_requests], move.settled_at);
          end loop;
        end loop;
      end if;
      outcomes[move.ordinality] := 'settled';
    else
      raise exception 'unknown money move %', move.kind;
    end if;
  end loop;
  return outcomes;
end $$;
`;
