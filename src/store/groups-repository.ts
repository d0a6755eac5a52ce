import type { Kysely, Selectable } from 'kysely';
import type { Budget } from '../billing/budgets/budget.js';
import { readJsonColumn } from './json-column.js';
import type { Database, GroupsTable } from './schema.js';

export interface GroupRecord {
  name: string;
  /** Price multiplier. */
  ratio: number;
  /** Spending windows shared by every key whose effective group this is (admin-api section 10). */
  budgets: Budget[];
  maxConcurrency: number | null;
  /** Whether the bodies of its keys' requests are stored (admin-api section 12), for keys that follow it. */
  logBodies: boolean;
}

/** What a group is until something is stored for it. */
export function defaultGroup(name: string): GroupRecord {
  return { name, ratio: 1, budgets: [], maxConcurrency: null, logBodies: false };
}

/** A write of one group: the members given replace the stored ones, the rest stay as they are. */
export type GroupChanges = { name: string } & Partial<Omit<GroupRecord, 'name'>>;

export class GroupsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<GroupRecord[]> {
    const rows = await this.db.selectFrom('groups').selectAll().orderBy('name').execute();
    return rows.map(toGroup);
  }

  async find(name: string): Promise<GroupRecord | undefined> {
    const row = await this.db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toGroup(row);
  }

  async delete(name: string): Promise<GroupRecord | undefined> {
    const row = await this.db.deleteFrom('groups').where('name', '=', name).returningAll().executeTakeFirst();
    return row && toGroup(row);
  }

  /**
   * Creates the group from the defaults and the given members, or changes only those members of
   * a stored one, in one statement, so concurrent writes of different members never undo each other.
   */
  async put(changes: GroupChanges): Promise<GroupRecord> {
    const given = {
      ...(changes.ratio !== undefined && { ratio: changes.ratio }),
      ...(changes.budgets !== undefined && { budgets: JSON.stringify(changes.budgets) }),
      ...(changes.maxConcurrency !== undefined && { max_concurrency: changes.maxConcurrency }),
      ...(changes.logBodies !== undefined && { log_bodies: Number(changes.logBodies) }),
    };
    const defaults = defaultGroup(changes.name);
    const row = await this.db
      .insertInto('groups')
      .values({
        name: changes.name,
        ratio: defaults.ratio,
        budgets: JSON.stringify(defaults.budgets),
        max_concurrency: defaults.maxConcurrency,
        log_bodies: Number(defaults.logBodies),
        ...given,
      })
      .onConflict((conflict) =>
        Object.keys(given).length === 0
          ? conflict.column('name').doNothing()
          : conflict.column('name').doUpdateSet(given),
      )
      .returningAll()
      .executeTakeFirst();
    // A write of no member to a stored group changes nothing and returns no row.
    if (row) return toGroup(row);
    const stored = await this.find(changes.name);
    if (!stored) throw new Error(`group ${changes.name} vanished while being written`);
    return stored;
  }
}

function toGroup(row: Selectable<GroupsTable>): GroupRecord {
  return {
    name: row.name,
    ratio: Number(row.ratio),
    budgets: readJsonColumn<Budget[]>(row.budgets, 'groups.budgets'),
    maxConcurrency: row.max_concurrency,
    logBodies: Boolean(row.log_bodies),
  };
}
