import type SqliteDatabase from 'better-sqlite3';
import type { WindowCharge, WindowRefusal } from '../billing/budgets/window-charge.js';
import type { ThresholdCrossing } from '../events/webhooks/budget-events.js';
import type { StoredWindow } from './budget-windows-repository.js';

/** One window's counts as a group commit moves them (nano-USD, tokens, requests). */
interface WindowState extends StoredWindow {
  key: string;
  changed: boolean;
}

/** A hold's reservation in its windows: the figures every one of them took. */
export interface WindowHold {
  amount: number;
  tokens: number;
  /** Unix seconds: a window that started later is a newer one, where the hold reserved nothing. */
  createdAt: number;
}

type Row = [number, number, number, number, number, number, number];

/**
 * The budget windows a group commit moves (admin-api section 10), read once per group and written
 * once per window just before the group commits, like `GroupBalances`. The transaction holds the
 * write lock, so what a window is read as stays true until it is written.
 */
export class GroupWindows {
  private readonly windows = new Map<string, WindowState | null>();
  private readonly read: SqliteDatabase.Statement<[string], Row>;
  private readonly write_: SqliteDatabase.Statement<unknown[]>;

  constructor(database: SqliteDatabase.Database) {
    this.read = database
      .prepare<[string], Row>(
        `select window_start, used_usd, used_tokens, used_requests, held_usd, held_tokens, held_requests
         from budget_windows where window_key = ?`,
      )
      .raw();
    this.write_ = database.prepare(
      `insert into budget_windows (window_key, window_start, used_usd, used_tokens, used_requests,
         held_usd, held_tokens, held_requests) values (?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (window_key) do update set window_start = excluded.window_start,
         used_usd = excluded.used_usd, used_tokens = excluded.used_tokens,
         used_requests = excluded.used_requests, held_usd = excluded.held_usd,
         held_tokens = excluded.held_tokens, held_requests = excluded.held_requests`,
    );
  }

  begin(): void {
    this.windows.clear();
  }

  /**
   * The first of `windows` that cannot take one more request of `amount` and `tokens` now, with
   * the dimension that refused; undefined when all of them can. Reads each window and, where its
   * time is past, starts the current one (in memory until `reserve`).
   */
  refusal(windows: readonly WindowCharge[], hold: WindowHold): WindowRefusal | undefined {
    for (let index = 0; index < windows.length; index += 1) {
      const window = windows[index]!;
      const state = this.current(window, hold.createdAt);
      if (!state) continue;
      const dimension =
        window.period === 'concurrency' ? slotRefusal(window, state) : budgetRefusal(window, state, hold);
      if (dimension)
        return { window: index, dimension, windowStart: state.start, used: usedOf(state, dimension) };
    }
    return undefined;
  }

  /** Reserves in every window; `refusal` said they all fit, in this group. */
  reserve(windows: readonly WindowCharge[], hold: WindowHold): void {
    for (const window of windows) {
      const state = this.current(window, hold.createdAt);
      if (!state) continue;
      state.heldUsd += hold.amount;
      state.heldTokens += hold.tokens;
      state.heldRequests += 1;
      state.changed = true;
    }
  }

  /**
   * Gives back what the hold reserved in each of its windows that is still the one it reserved
   * in; when `counted`, counts the real `cost`, `tokens` and the request there too. Returns the
   * thresholds that settled usage crossed.
   */
  settle(
    windows: readonly WindowCharge[],
    hold: WindowHold,
    counted: { cost: number; tokens: number } | null,
    events: boolean,
  ): ThresholdCrossing[] {
    const crossings: ThresholdCrossing[] = [];
    for (const window of windows) {
      const state = this.givenBack(window.key, hold);
      if (!state || !counted) continue;
      const before = [state.usedUsd, state.usedTokens, state.usedRequests] as const;
      state.usedUsd += counted.cost;
      state.usedTokens += counted.tokens;
      state.usedRequests += 1;
      if (events && window.alertAt.length > 0) crossings.push(...crossed(window, state, before));
    }
    return crossings;
  }

  /** Gives back a returned hold's reservation in the windows named by `keys`. */
  release(keys: readonly string[], hold: WindowHold): void {
    for (const key of keys) this.givenBack(key, hold);
  }

  private givenBack(key: string, hold: WindowHold): WindowState | null {
    const state = this.stored(key);
    if (!state || state.start > hold.createdAt) return null;
    state.heldUsd -= hold.amount;
    state.heldTokens -= hold.tokens;
    state.heldRequests -= 1;
    state.changed = true;
    return state;
  }

  /** Writes the group's windows; the last statements of the group's transaction. */
  write(): void {
    for (const state of this.windows.values()) {
      if (!state?.changed) continue;
      this.write_.run(
        state.key,
        state.start,
        state.usedUsd,
        state.usedTokens,
        state.usedRequests,
        Math.max(0, state.heldUsd),
        Math.max(0, state.heldTokens),
        Math.max(0, state.heldRequests),
      );
    }
  }

  /** The window as stored (or as the group left it); null when there is none. */
  private stored(key: string): WindowState | null {
    let state = this.windows.get(key);
    if (state === undefined) {
      const row = this.read.get(key);
      state = row ? stateOf(key, row) : null;
      this.windows.set(key, state);
    }
    return state;
  }

  /**
   * The window the request at `now` counts in: the stored one while it lasts, else a new one. Null
   * when another process has already started a window after `now` (the request's own closed as it
   * arrived): the request counts in neither, as its settlement, which skips a window that started
   * after the hold, expects.
   */
  private current(window: WindowCharge, now: number): WindowState | null {
    const state = this.stored(window.key);
    if (state !== null && state.start > now) return null;
    const start = window.start ?? now;
    const past =
      state === null ||
      (window.sessionSeconds === null ? state.start < start : now >= state.start + window.sessionSeconds);
    if (!past) return state;
    const fresh = stateOf(window.key, [start, 0, 0, 0, 0, 0, 0]);
    fresh.changed = true;
    this.windows.set(window.key, fresh);
    return fresh;
  }
}

function stateOf(key: string, row: Row): WindowState {
  return {
    key,
    start: Number(row[0]),
    usedUsd: Number(row[1]),
    usedTokens: Number(row[2]),
    usedRequests: Number(row[3]),
    heldUsd: Number(row[4]),
    heldTokens: Number(row[5]),
    heldRequests: Number(row[6]),
    changed: false,
  };
}

function usedOf(state: WindowState, dimension: WindowRefusal['dimension']): number {
  if (dimension === 'usd') return state.usedUsd + state.heldUsd;
  if (dimension === 'tokens') return state.usedTokens + state.heldTokens;
  return state.usedRequests + state.heldRequests;
}

/** Settled and reserved usage together must leave room for this request in every dimension. */
function budgetRefusal(
  window: WindowCharge,
  state: WindowState,
  hold: WindowHold,
): WindowRefusal['dimension'] | undefined {
  if (window.usd !== null && state.usedUsd + state.heldUsd + hold.amount > window.usd) return 'usd';
  if (window.tokens !== null && state.usedTokens + state.heldTokens + hold.tokens > window.tokens)
    return 'tokens';
  if (window.requests !== null && state.usedRequests + state.heldRequests + 1 > window.requests)
    return 'requests';
  return undefined;
}

/** A concurrency cap counts the requests in flight only. */
function slotRefusal(window: WindowCharge, state: WindowState): 'requests' | undefined {
  return window.requests !== null && state.heldRequests + 1 > window.requests ? 'requests' : undefined;
}

function crossed(
  window: WindowCharge,
  state: WindowState,
  before: readonly [number, number, number],
): ThresholdCrossing[] {
  const crossings: ThresholdCrossing[] = [];
  const dimensions = [
    ['usd', window.usd, before[0], state.usedUsd],
    ['tokens', window.tokens, before[1], state.usedTokens],
    ['requests', window.requests, before[2], state.usedRequests],
  ] as const;
  for (const [dimension, limit, was, now] of dimensions) {
    if (limit === null) continue;
    for (const threshold of window.alertAt) {
      const mark = threshold * limit;
      if (was < mark && now >= mark)
        crossings.push({ window, windowStart: state.start, dimension, threshold, used: now, limit });
    }
  }
  return crossings;
}
