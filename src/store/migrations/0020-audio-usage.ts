import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { servedModelFunction } from './0014-served-model.js';

/**
 * What audio requests are billed by (admin-api section 14), kept in the usage record beside the
 * tokens: `audio_seconds` of input audio (`per_minute`) and `characters` of speech input
 * (`per_million_characters`), null for records of other requests. On holds, as part of the record
 * a settlement writes; on PostgreSQL, `gateway_money_moves` as 0014 left it, with a settlement's
 * two figures written into its hold.
 */
export function audioUsageMigration(dialect: DialectName): Migration {
  const seconds = dialect === 'postgres' ? 'double precision' : 'real';
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['holds', 'usage_logs']) {
        await db.schema.alterTable(table).addColumn('audio_seconds', seconds).execute();
        await db.schema.alterTable(table).addColumn('characters', 'integer').execute();
      }
      if (dialect === 'postgres') await sql.raw(audioUsageFunction).execute(db);
    },
  };
}

const CHANGES: [string, string][] = [
  [
    'reasoning_tokens bigint, latency_ms integer, first_byte_ms integer,',
    'reasoning_tokens bigint, latency_ms integer, first_byte_ms integer,\n' +
      '        audio_seconds double precision, characters integer,',
  ],
  [
    'first_byte_ms = move.first_byte_ms, error = move.error, settled_at = move.settled_at',
    'first_byte_ms = move.first_byte_ms, error = move.error, settled_at = move.settled_at,\n' +
      '          audio_seconds = move.audio_seconds, characters = move.characters',
  ],
];

/** `gateway_money_moves` as this migration leaves it. */
export const audioUsageFunction = withAudioUsage(servedModelFunction);

function withAudioUsage(functionSql: string): string {
  let changed = functionSql;
  for (const [from, to] of CHANGES) {
    if (changed.split(from).length !== 2) throw new Error(`expected one "${from}" in gateway_money_moves`);
    changed = changed.replace(from, to);
  }
  return changed;
}
