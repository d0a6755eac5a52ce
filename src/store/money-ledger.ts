import { openPostgresMoneyLedger } from './postgres-money-ledger.js';
import { openSqliteMoneyLedger } from './sqlite-money-ledger.js';
import type { Store } from './database.js';

/** The money moves of one request, each atomic, in nano-USD. */
export interface MoneyLedger {
  /**
   * Takes `amount` from a positive balance that covers it and, for a capped key, from the key's
   * quota too — both or neither. Says which one refused.
   */
  reserve(hold: Hold): Promise<'reserved' | 'balance' | 'quota'>;
  /** Charges `cost` against a hold: the rest goes back, `used` counters grow. */
  settle(hold: Hold, cost: number): Promise<void>;
  /** Returns a hold whole. */
  release(hold: Hold): Promise<void>;
  balanceOf(userId: number): Promise<number>;
  quotaOf(keyId: number): Promise<number>;
}

export interface Hold {
  userId: number;
  keyId: number;
  keyCapped: boolean;
  amount: number;
}

/**
 * Every request runs these statements, so they skip the query builder: on SQLite they are
 * synchronous prepared statements in one transaction; on PostgreSQL, single statements where
 * possible so each move is one round trip.
 */
export function openMoneyLedger(store: Store): MoneyLedger {
  return store.sqlite ? openSqliteMoneyLedger(store.sqlite) : openPostgresMoneyLedger(store.db);
}
