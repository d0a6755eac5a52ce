import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { moneyMovesFunction } from './0010-windows-per-batch.js';

/**
 * `requested_model` on holds and usage records (admin-api section 11.2): the model the client
 * named, kept where it differs from the model that served the request (a virtual model's target,
 * a name with a modifier); null where they are the same. On PostgreSQL, `gateway_money_moves` as
 * 0010 made it, with a reservation's `requested_model` written into its hold.
 */
export function requestedModelMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('holds').addColumn('requested_model', 'text').execute();
      await db.schema.alterTable('usage_logs').addColumn('requested_model', 'text').execute();
      if (dialect === 'postgres') await sql.raw(requestedModelFunction).execute(db);
    },
  };
}

const CHANGES: [string, string][] = [
  ['model text, endpoint text,', 'model text, requested_model text, endpoint text,'],
  [
    'insert into holds (id, owner, user_id, key_id, key_capped, amount, model, endpoint,',
    'insert into holds (id, owner, user_id, key_id, key_capped, amount, model, requested_model, endpoint,',
  ],
  [
    'move.amount, move.model,\n          move.endpoint,',
    'move.amount, move.model,\n          move.requested_model, move.endpoint,',
  ],
];

/** `gateway_money_moves` as this migration leaves it. */
export const requestedModelFunction = withRequestedModel(moneyMovesFunction);

function withRequestedModel(functionSql: string): string {
  let changed = functionSql;
  for (const [from, to] of CHANGES) {
    if (changed.split(from).length !== 2) throw new Error(`expected one "${from}" in gateway_money_moves`);
    changed = changed.replace(from, to);
  }
  return changed;
}
