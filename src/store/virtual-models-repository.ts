import type { Kysely, Selectable } from 'kysely';
import { readJsonColumn } from './json-column.js';
import type { Database, VirtualModelsTable } from './schema.js';

/** Failures that may move a request on to the next target (admin-api section 11.3). */
export const FALLBACK_KINDS = [
  'rate_limit',
  'server_error',
  'timeout',
  'context_length',
  'content_filter',
] as const;
export type FallbackKind = (typeof FALLBACK_KINDS)[number];

export interface VirtualModelTarget {
  model: string;
  priority: number;
  weight: number;
}

/** A public name served by one of its targets (admin-api section 11.2). */
export interface VirtualModelRecord {
  name: string;
  targets: VirtualModelTarget[];
  strategy: 'priority' | 'latency';
  fallbackOn: FallbackKind[];
  sticky: boolean;
}

export class VirtualModelsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<VirtualModelRecord[]> {
    const rows = await this.db.selectFrom('virtual_models').selectAll().orderBy('name').execute();
    return rows.map(toVirtualModel);
  }

  async find(name: string): Promise<VirtualModelRecord | undefined> {
    const row = await this.db
      .selectFrom('virtual_models')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row && toVirtualModel(row);
  }

  /** Stores a new virtual model; undefined when the name is taken. */
  async create(model: VirtualModelRecord): Promise<VirtualModelRecord | undefined> {
    const row = await this.db
      .insertInto('virtual_models')
      .values({ name: model.name, ...columnsOf(model) })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && toVirtualModel(row);
  }

  async replace(model: VirtualModelRecord): Promise<VirtualModelRecord | undefined> {
    const row = await this.db
      .updateTable('virtual_models')
      .set(columnsOf(model))
      .where('name', '=', model.name)
      .returningAll()
      .executeTakeFirst();
    return row && toVirtualModel(row);
  }

  async delete(name: string): Promise<VirtualModelRecord | undefined> {
    const row = await this.db
      .deleteFrom('virtual_models')
      .where('name', '=', name)
      .returningAll()
      .executeTakeFirst();
    return row && toVirtualModel(row);
  }
}

function columnsOf(model: VirtualModelRecord) {
  return {
    targets: JSON.stringify(model.targets),
    strategy: model.strategy,
    fallback_on: JSON.stringify(model.fallbackOn),
    sticky: Number(model.sticky),
  };
}

function toVirtualModel(row: Selectable<VirtualModelsTable>): VirtualModelRecord {
  return {
    name: row.name,
    targets: readJsonColumn<VirtualModelTarget[]>(row.targets, 'virtual_models.targets'),
    strategy: row.strategy,
    fallbackOn: readJsonColumn<FallbackKind[]>(row.fallback_on, 'virtual_models.fallback_on'),
    sticky: Boolean(row.sticky),
  };
}
