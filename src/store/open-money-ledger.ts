import type { Store } from './database.js';
import type { MoneyLedger } from './money-ledger.js';
import { openPostgresMoneyLedger } from './postgres-money-ledger.js';
import { openSqliteMoneyLedger } from './sqlite-money-ledger.js';

/**
 * Every request runs these statements, so they skip the query builder. Both databases group-commit
 * the moves of concurrent requests: on SQLite, synchronous prepared statements in one transaction;
 * on PostgreSQL, one call of a database function per batch, one round trip.
 */
export function openMoneyLedger(store: Store): MoneyLedger {
  return store.sqlite ? openSqliteMoneyLedger(store.sqlite) : openPostgresMoneyLedger(store.db);
}
