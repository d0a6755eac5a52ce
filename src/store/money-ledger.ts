import type { HoldBudget, ReserveOutcome } from '../billing/budgets/window-charge.js';
import type { LoggedBody } from './usage-log-bodies-repository.js';
import type { NewUsageLog } from './usage-logs-repository.js';

/** The money of one request while it runs, as the `holds` table keeps it (nano-USD). */
export interface Hold {
  /** The request id: the natural key that makes every later move happen at most once. */
  id: string;
  /** The lease owner (process life) running the request. */
  owner: string;
  userId: number;
  keyId: number;
  /** Whether the key's own quota was taken too. */
  keyCapped: boolean;
  amount: number;
  model: string;
  /** The model the client named, where it differs from `model` (admin-api section 11.2). */
  requestedModel?: string | undefined;
  endpoint: string;
  stream: boolean;
  /** Unix seconds. */
  createdAt: number;
  /** The windows of budgets and concurrency caps the request counts in; absent when none. */
  budget?: HoldBudget | undefined;
  /**
   * The user's `low_balance_alert` (nano-USD) when events are sent: the settlement decides the
   * `balance.low` event. Absent otherwise.
   */
  lowBalanceAlert?: number | undefined;
}

/**
 * The money of a hold: whose it is and how much. A returned hold gives this back, so caches of the
 * key can follow.
 */
export type ReturnedHold = Pick<Hold, 'userId' | 'keyId' | 'keyCapped' | 'amount'>;

/** What a settlement needs of its hold: the figures the reservation wrote into it. */
export type HeldMoney = ReturnedHold &
  Pick<Hold, 'id' | 'createdAt' | 'model' | 'budget' | 'lowBalanceAlert'>;

/**
 * The money moves of a request, each one atomic and each tied to the durable hold: the hold is
 * written in the transaction that takes the money and deleted in the one that settles it, so a
 * move repeated after a lost acknowledgement, or raced by crash recovery, happens once.
 */
export interface MoneyLedger {
  /**
   * Takes `amount` from a positive balance that covers it and, for a capped key, from the key's
   * quota too — both or neither — and the request's reservation in each of its windows, and
   * records the hold. Says which one refused: the balance and the key's quota are checked first.
   */
  reserve(hold: Hold): Promise<ReserveOutcome>;
  /**
   * Charges `cost` against the hold (the rest goes back, `used` counters grow) and writes the
   * request's usage record into the hold, in one transaction. A record whose `model` is not the
   * hold's (the request fell back to another model) moves the hold to it, the model the client
   * named kept as `requested_model`. The hold's windows give back their
   * reservation and, when `counted` (the request was served), count the cost, the record's tokens
   * and the request. False when the hold was settled or returned already.
   */
  settle(hold: HeldMoney, cost: number, record: NewUsageLog, counted?: boolean): Promise<boolean>;
  /**
   * Moves the records of the owner's settled holds to `usage_logs` and deletes those holds, in one
   * transaction: many records share one commit. The bodies logged meanwhile (admin-api section 12)
   * are written in the same batch. Resolves to how many records were moved.
   */
  storeRecords(owner: string, bodies?: readonly LoggedBody[]): Promise<number>;
  /**
   * For a dead owner: stores the records of its settled holds, then returns every other hold
   * whole, each leaving a usage record with status 0, cost 0 and error `interrupted`. Holds
   * another caller returned first are not returned again.
   */
  returnHolds(owner: string): Promise<ReturnedHold[]>;
  balanceOf(userId: number): Promise<number>;
  quotaOf(keyId: number): Promise<number>;
}

/** The usage record a returned hold leaves (admin-api section 3, rule 6). */
export const INTERRUPTED = 'interrupted';
