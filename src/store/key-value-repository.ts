import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A table of named text values: `settings` (live settings as JSON) or `system_state` (secrets, hashes). */
export class KeyValueRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: 'settings' | 'system_state',
  ) {}

  async all(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom(this.table).selectAll().execute();
    return new Map(rows.map((row) => [row.name, row.value]));
  }

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom(this.table).selectAll().where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  async put(name: string, value: string): Promise<void> {
    await this.db
      .insertInto(this.table)
      .values({ name, value })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
      .execute();
  }

  /** Writes the value only when none is stored; returns whether it was written. */
  async putIfAbsent(name: string, value: string): Promise<boolean> {
    const result = await this.db
      .insertInto(this.table)
      .values({ name, value })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
