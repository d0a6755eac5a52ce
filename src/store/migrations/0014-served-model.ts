import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { requestedModelFunction } from './0013-requested-model.js';

/**
 * A request that fell back to another model (admin-api section 11.3) is recorded under the model
 * that served it: a settlement may name it; the hold's `model` becomes it, and `requested_model`
 * the model the client named (the hold's own `model` where it had none). On SQLite the settling transaction does this itself; on
 * PostgreSQL, `gateway_money_moves` as 0013 made it, with a settlement's `model` written into its hold.
 */
export function servedModelMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') await sql.raw(servedModelFunction).execute(db);
    },
  };
}

const SETTLEMENT = 'update holds set status_code = move.status_code,';
const SETTLEMENT_NAMING_THE_MODEL =
  'update holds set model = coalesce(move.model, holds.model),\n' +
  '          requested_model = case when move.model is null then holds.requested_model\n' +
  '            else coalesce(holds.requested_model, holds.model) end,\n' +
  '          status_code = move.status_code,';

/** `gateway_money_moves` as this migration leaves it; 0020 replaces it with a change of its own. */
export const servedModelFunction = withServedModel(requestedModelFunction);

function withServedModel(functionSql: string): string {
  if (functionSql.split(SETTLEMENT).length !== 2)
    throw new Error(`expected one "${SETTLEMENT}" in gateway_money_moves`);
  return functionSql.replace(SETTLEMENT, SETTLEMENT_NAMING_THE_MODEL);
}
