import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export interface GroupRecord {
  name: string;
  ratio: number;
}

export class GroupsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<GroupRecord[]> {
    const rows = await this.db.selectFrom('groups').selectAll().orderBy('name').execute();
    return rows.map((row) => ({ name: row.name, ratio: Number(row.ratio) }));
  }

  async put(group: GroupRecord): Promise<GroupRecord> {
    await this.db
      .insertInto('groups')
      .values(group)
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ ratio: group.ratio }))
      .execute();
    return group;
  }
}
