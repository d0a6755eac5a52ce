import type { Kysely, Selectable } from 'kysely';
import { readNullableJsonColumn } from './json-column.js';
import type { Database, ModelMetadataTable } from './schema.js';

/** What a request may need of a model (admin-api section 11.1). */
export const MODEL_CAPABILITIES = ['tools', 'vision', 'json_schema', 'reasoning', 'audio'] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];

/** What is known of a public model ID; null members are unknown and never exclude the model. */
export interface ModelMetadataRecord {
  model: string;
  contextWindow: number | null;
  maxOutputTokens: number | null;
  capabilities: ModelCapability[] | null;
}

export class ModelMetadataRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<ModelMetadataRecord[]> {
    const rows = await this.db.selectFrom('model_metadata').selectAll().orderBy('model').execute();
    return rows.map(toModelMetadata);
  }

  async find(model: string): Promise<ModelMetadataRecord | undefined> {
    const row = await this.db
      .selectFrom('model_metadata')
      .selectAll()
      .where('model', '=', model)
      .executeTakeFirst();
    return row && toModelMetadata(row);
  }

  /** Creates or replaces the model's metadata. */
  async put(metadata: ModelMetadataRecord): Promise<ModelMetadataRecord> {
    const values = {
      context_window: metadata.contextWindow,
      max_output_tokens: metadata.maxOutputTokens,
      capabilities: metadata.capabilities === null ? null : JSON.stringify(metadata.capabilities),
    };
    const row = await this.db
      .insertInto('model_metadata')
      .values({ model: metadata.model, ...values })
      .onConflict((conflict) => conflict.column('model').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toModelMetadata(row);
  }

  async delete(model: string): Promise<ModelMetadataRecord | undefined> {
    const row = await this.db
      .deleteFrom('model_metadata')
      .where('model', '=', model)
      .returningAll()
      .executeTakeFirst();
    return row && toModelMetadata(row);
  }
}

function toModelMetadata(row: Selectable<ModelMetadataTable>): ModelMetadataRecord {
  const optional = (value: number | null) => (value === null ? null : Number(value));
  return {
    model: row.model,
    contextWindow: optional(row.context_window),
    maxOutputTokens: optional(row.max_output_tokens),
    capabilities: readNullableJsonColumn<ModelCapability[]>(row.capabilities, 'model_metadata.capabilities'),
  };
}
