import type { Kysely, Migration } from 'kysely';

/** Model metadata (admin-api section 11.1): context window, output cap and capabilities per public model ID. */
export const modelMetadataMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('model_metadata')
      .addColumn('model', 'text', (c) => c.primaryKey())
      .addColumn('context_window', 'bigint')
      .addColumn('max_output_tokens', 'bigint')
      .addColumn('capabilities', 'text')
      .execute();
  },
};
