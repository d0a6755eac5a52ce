import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { moneyMovesFunction } from './0008-budget-money-moves.js';

const READ_WINDOW = 'select * into win from budget_windows where window_key = w.key;';

/**
 * PostgreSQL: `gateway_money_moves` as 0008 made it, but a reservation skips a window that another
 * process has already moved past the request's own time (a day window that rolled over at midnight
 * between the request's arrival and its move): the request's window has closed, so it counts in
 * neither. Settlement and the return of a dead process's holds already skip such a window (it
 * started after the hold), so a reservation made there was never given back.
 */
export function newerWindowsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await sql.raw(skippingNewerWindows(moneyMovesFunction)).execute(db);
    },
  };
}

function skippingNewerWindows(functionSql: string): string {
  const reads = functionSql.split(READ_WINDOW).length - 1;
  if (reads !== 2) throw new Error(`expected the check and the reservation to read a window, found ${reads}`);
  return functionSql.replaceAll(
    READ_WINDOW,
    `${READ_WINDOW}\n          if win.window_start > move.created_at then continue; end if;`,
  );
}
