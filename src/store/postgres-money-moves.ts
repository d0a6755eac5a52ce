import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { ReserveOutcome } from '../billing/budgets/window-charge.js';
import { preparedSql } from './prepared-sql.js';
import type { Database } from './schema.js';

/** A reservation as `gateway_money_moves` reads it (members named after its columns). */
export interface ReserveMove {
  kind: 'reserve';
  id: string;
  owner: string;
  user_id: number;
  key_id: number;
  key_capped: boolean;
  amount: number;
  model: string;
  /** Absent where the client named the model that serves the request. */
  requested_model?: string;
  endpoint: string;
  stream: boolean;
  created_at: number;
  /** Present when the request counts in windows (budgets, concurrency caps). */
  budgeted?: true;
  windows?: WindowMove[];
  budget_tokens?: number;
}

/** A window of a reservation, as `gateway_window_refusal` reads it. */
export interface WindowMove {
  key: string;
  period: string;
  start: number | null;
  session_s: number | null;
  usd: number | null;
  tokens: number | null;
  requests: number | null;
}

/** A window whose `alert_at` fractions a settlement checks, with what its events say. */
export interface AlertMove {
  key: string;
  scope: string;
  owner: number | string;
  period: string;
  end: number | null;
  session_s: number | null;
  usd: number | null;
  tokens: number | null;
  requests: number | null;
  at: readonly number[];
}

/** A settlement: the cost charged against hold `id`, and the usage record written into it. */
export interface SettleMove {
  kind: 'settle';
  id: string;
  /** Orders the move among the batch's (see the function); the hold's own user is charged. */
  user_id: number;
  cost: number;
  status_code: number;
  channel_id: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  latency_ms: number;
  first_byte_ms: number | null;
  error: string | null;
  settled_at: number;
  /** Seconds of input audio, characters of speech input (admin-api section 14); absent: null. */
  audio_seconds?: number;
  characters?: number;
  /** The model that served the request, where it is not the hold's (a fallback to another model). */
  model?: string;
  /** Present when the hold counts in windows. */
  budgeted?: true;
  /** The request was served: its figures count in the windows (a failed one counts nothing). */
  counted?: boolean;
  alerts?: AlertMove[];
  /** The user's `low_balance_alert` (nano-USD) when the `balance.low` event is decided. */
  low_balance?: number;
}

export type MoneyMove = ReserveMove | SettleMove;

/**
 * Which side refused a reservation, if any (a window as `window:<index>:<dimension>:<start>:<usage>`,
 * see `reserveOutcome`); whether a settlement found its hold still open.
 */
export type OutcomeOf<Move extends MoneyMove> = Move extends ReserveMove
  ? 'reserved' | 'balance' | 'quota' | `window:${string}`
  : 'settled' | 'gone';
type MoveOutcome = OutcomeOf<ReserveMove> | OutcomeOf<SettleMove>;

interface Entry {
  move: MoneyMove;
  resolve: (outcome: MoveOutcome) => void;
  reject: (error: unknown) => void;
}

const applyMoves = preparedSql('postgres', 'select gateway_money_moves(?::jsonb) as outcomes');

/** A deadlock victim or a serialization failure: the whole transaction was rolled back. */
const RETRYABLE_STATES = new Set(['40P01', '40001']);
/**
 * Classes of errors that one move's data causes (22: data exception, 23: integrity constraint
 * violation): the batch rolled back, and its moves are applied again one by one, so that only the
 * move at fault fails.
 */
const REFUSED_DATA_CLASSES = new Set(['22', '23']);
const MAX_ATTEMPTS = 5;
/**
 * The wait before sending a rolled-back batch again, times the attempt. Sent at once, it can take a
 * row back before the transaction it deadlocked with, woken by the rollback, has run, and meet it
 * again in the same cycle.
 */
const RETRY_DELAY_MS = 10;
/** A longer queue goes in several batches, so no one transaction holds its locks for long. */
export const MAX_MOVES_PER_BATCH = 500;

/**
 * Group commit on PostgreSQL: the money moves submitted while the event loop handles one round of
 * I/O, or while the batch before them is on its way, go together in the next batch: one round
 * trip, one transaction and one commit (one write-ahead log flush) for all of them, each move still
 * atomic, applied by the `gateway_money_moves` function. One batch is in flight at a time, so a
 * process never waits on its own locks. A batch rolled back whole (a deadlock with another
 * instance, a serialization failure) is sent again; any other failure fails each of its moves, as
 * a single statement's would.
 */
export class PostgresMoneyMoves {
  private queue: Entry[] = [];
  /** A batch is scheduled or in flight. */
  private busy = false;

  constructor(private readonly db: Kysely<Database>) {}

  submit<Move extends MoneyMove>(move: Move): Promise<OutcomeOf<Move>> {
    return new Promise<OutcomeOf<Move>>((resolve, reject) => {
      this.queue.push({ move, resolve: resolve as (outcome: MoveOutcome) => void, reject });
      if (this.busy) return;
      this.busy = true;
      setImmediate(this.flush);
    });
  }

  private readonly flush = (): void => {
    const entries = this.queue.splice(0, MAX_MOVES_PER_BATCH);
    void this.apply(entries).finally(() => {
      if (this.queue.length > 0) setImmediate(this.flush);
      else this.busy = false;
    });
  };

  private async apply(entries: Entry[]): Promise<void> {
    const moves = JSON.stringify(entries.map((entry) => entry.move));
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows } = await this.db.executeQuery<{ outcomes: MoveOutcome[] }>(applyMoves(moves));
        const outcomes = rows[0]!.outcomes;
        entries.forEach((entry, index) => entry.resolve(outcomes[index]!));
        return;
      } catch (error) {
        const state = sqlState(error);
        if (attempt < MAX_ATTEMPTS && RETRYABLE_STATES.has(state)) {
          await delay(RETRY_DELAY_MS * attempt);
          continue;
        }
        if (entries.length > 1 && REFUSED_DATA_CLASSES.has(state.slice(0, 2))) {
          for (const entry of entries) await this.apply([entry]);
          return;
        }
        for (const entry of entries) entry.reject(error);
        return;
      }
    }
  }
}

function sqlState(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

const UNSTORABLE_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as PostgreSQL can store it: a NUL character, or half of a surrogate pair (which JSON can
 * carry and `jsonb` refuses), becomes U+FFFD. An upstream's error message is copied into the
 * usage record, and no text from outside may make a settlement fail.
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE_TEXT, '\uFFFD');
}

/** A reservation's outcome as the function writes it, read. */
export function reserveOutcome(outcome: OutcomeOf<ReserveMove>): ReserveOutcome {
  if (!outcome.startsWith('window:')) return outcome as Exclude<ReserveOutcome, object>;
  const [, index, dimension, start, used] = outcome.split(':');
  return {
    window: Number(index),
    dimension: dimension as 'usd' | 'tokens' | 'requests',
    windowStart: Number(start),
    used: Number(used),
  };
}
