import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The kinds of entity a configuration file declares (admin-api section 13), by their API names. */
export const MANAGED_KINDS = {
  channels: { table: 'channels', key: 'name' },
  prices: { table: 'prices', key: 'model' },
  groups: { table: 'groups', key: 'name' },
  models: { table: 'model_metadata', key: 'model' },
  virtual_models: { table: 'virtual_models', key: 'name' },
  guardrails: { table: 'guardrails', key: 'name' },
  settings: { table: 'settings', key: 'name' },
} as const;

export type ManagedKind = keyof typeof MANAGED_KINDS;

/** Where `system_state` keeps the path of the file that manages entities. */
export const CONFIG_FILE_STATE = 'config_file';

/**
 * Which entities the configuration file manages: their natural keys (a channel's name, a price's
 * model, ...), read from each table's `managed` column. Only the management API reads it, so each
 * read goes to the database and every instance sees the file's last apply.
 */
export class ManagedEntitiesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async keysOf(kind: ManagedKind): Promise<Set<string>> {
    const { table, key } = MANAGED_KINDS[kind];
    const rows = await this.db
      .selectFrom(table as 'channels')
      .select(sql<string>`${sql.ref(key)}`.as('key'))
      .where('managed', '=', 'config')
      .execute();
    return new Set(rows.map((row) => row.key));
  }

  async isManaged(kind: ManagedKind, naturalKey: string): Promise<boolean> {
    const { table, key } = MANAGED_KINDS[kind];
    const row = await this.db
      .selectFrom(table as 'channels')
      .select('managed')
      .where(sql<boolean>`${sql.ref(key)} = ${naturalKey}`)
      .where('managed', '=', 'config')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Marks who owns one entity; the configuration file's apply is the only writer. */
  async mark(kind: ManagedKind, naturalKey: string, managed: 'config' | 'api'): Promise<void> {
    const { table, key } = MANAGED_KINDS[kind];
    await this.db
      .updateTable(table as 'channels')
      .set({ managed })
      .where(sql<boolean>`${sql.ref(key)} = ${naturalKey}`)
      .execute();
  }

  /** The file the last apply read, or null when no file manages anything. */
  async configFile(): Promise<string | null> {
    const row = await this.db
      .selectFrom('system_state')
      .select('value')
      .where('name', '=', CONFIG_FILE_STATE)
      .executeTakeFirst();
    return row?.value ?? null;
  }
}
