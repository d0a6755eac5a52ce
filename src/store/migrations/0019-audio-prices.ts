import type { Kysely, Migration } from 'kysely';

/**
 * Audio prices (admin-api section 14), nano-USD like the others: per 1M input and output audio
 * tokens (null: the text price), per minute of input audio, per 1M input characters.
 */
export const audioPricesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['input_audio', 'output_audio', 'per_minute', 'per_million_characters'])
      await db.schema.alterTable('prices').addColumn(column, 'bigint').execute();
  },
};
