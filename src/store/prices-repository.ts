import type { Kysely, Selectable } from 'kysely';
import type { Database, PricesTable } from './schema.js';

/**
 * Prices in nano-USD per 1,000,000 tokens; `perRequest` per call, `perMinute` per minute of input
 * audio, `perMillionCharacters` per 1,000,000 input characters (admin-api section 14).
 */
export interface PriceRecord {
  model: string;
  input: number;
  output: number;
  cachedInput: number | null;
  cacheWrite: number | null;
  perRequest: number | null;
  /** Audio tokens; null: the text price. */
  inputAudio: number | null;
  outputAudio: number | null;
  perMinute: number | null;
  perMillionCharacters: number | null;
}

export class PricesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<PriceRecord[]> {
    const rows = await this.db.selectFrom('prices').selectAll().orderBy('model').execute();
    return rows.map(toPrice);
  }

  async find(model: string): Promise<PriceRecord | undefined> {
    const row = await this.db.selectFrom('prices').selectAll().where('model', '=', model).executeTakeFirst();
    return row && toPrice(row);
  }

  async put(price: PriceRecord): Promise<PriceRecord> {
    const values = {
      input: price.input,
      output: price.output,
      cached_input: price.cachedInput,
      cache_write: price.cacheWrite,
      per_request: price.perRequest,
      input_audio: price.inputAudio,
      output_audio: price.outputAudio,
      per_minute: price.perMinute,
      per_million_characters: price.perMillionCharacters,
    };
    const row = await this.db
      .insertInto('prices')
      .values({ model: price.model, ...values })
      .onConflict((conflict) => conflict.column('model').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toPrice(row);
  }

  async delete(model: string): Promise<PriceRecord | undefined> {
    const row = await this.db
      .deleteFrom('prices')
      .where('model', '=', model)
      .returningAll()
      .executeTakeFirst();
    return row && toPrice(row);
  }
}

function toPrice(row: Selectable<PricesTable>): PriceRecord {
  const optional = (value: number | null) => (value === null ? null : Number(value));
  return {
    model: row.model,
    input: Number(row.input),
    output: Number(row.output),
    cachedInput: optional(row.cached_input),
    cacheWrite: optional(row.cache_write),
    perRequest: optional(row.per_request),
    inputAudio: optional(row.input_audio),
    outputAudio: optional(row.output_audio),
    perMinute: optional(row.per_minute),
    perMillionCharacters: optional(row.per_million_characters),
  };
}
