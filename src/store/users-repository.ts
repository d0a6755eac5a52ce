import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Budget } from '../billing/budgets/budget.js';
import { readJsonColumn, unixNow } from './json-column.js';
import type { Database, UsersTable } from './schema.js';

export type UserRole = 'user' | 'admin';
export type UserStatus = 'enabled' | 'disabled';

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string | null;
  role: UserRole;
  group: string;
  /** nano-USD */
  balance: number;
  /** nano-USD */
  used: number;
  language: 'en' | 'zh-CN' | null;
  status: UserStatus;
  /** Spending windows counting every key of the user (admin-api section 10). */
  budgets: Budget[];
  maxConcurrency: number | null;
  /** nano-USD; a balance falling below it sends a `balance.low` event (admin-api section 10.1). */
  lowBalanceAlert: number | null;
  createdAt: number;
}

type SpendLimits = 'budgets' | 'maxConcurrency' | 'lowBalanceAlert';

/** Without spend limits given, a user has no budgets, no concurrency cap and no low-balance alert. */
export type NewUser = Omit<UserRecord, 'id' | 'used' | 'createdAt' | SpendLimits> &
  Partial<Pick<UserRecord, SpendLimits>>;
export type UserChanges = Partial<Omit<UserRecord, 'id' | 'used' | 'createdAt'>>;

export interface ListOptions {
  limit: number;
  offset: number;
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(user: NewUser): Promise<UserRecord> {
    const row = await this.db
      .insertInto('users')
      .values({
        username: user.username,
        password_hash: user.passwordHash,
        role: user.role,
        group_name: user.group,
        balance: user.balance,
        used: 0,
        language: user.language,
        status: user.status,
        budgets: JSON.stringify(user.budgets ?? []),
        max_concurrency: user.maxConcurrency ?? null,
        low_balance_alert: user.lowBalanceAlert ?? null,
        created_at: unixNow(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  }

  async find(id: number): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findByUsername(username: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row && toUser(row);
  }

  async list(options: ListOptions): Promise<UserRecord[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map(toUser);
  }

  async update(id: number, changes: UserChanges): Promise<UserRecord | undefined> {
    const values = {
      // A renamed user joins the case-insensitive unique index (migration 0022), whatever it was before.
      ...(changes.username !== undefined && { username: changes.username, username_case_duplicate: 0 }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
      ...(changes.role !== undefined && { role: changes.role }),
      ...(changes.group !== undefined && { group_name: changes.group }),
      ...(changes.balance !== undefined && { balance: changes.balance }),
      ...(changes.language !== undefined && { language: changes.language }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.budgets !== undefined && { budgets: JSON.stringify(changes.budgets) }),
      ...(changes.maxConcurrency !== undefined && { max_concurrency: changes.maxConcurrency }),
      ...(changes.lowBalanceAlert !== undefined && { low_balance_alert: changes.lowBalanceAlert }),
      ...((changes.balance !== undefined || changes.lowBalanceAlert !== undefined) && {
        low_balance_alerted: alertedUnlessAbove(
          changes.balance === undefined ? sql.ref('balance') : sql`cast(${changes.balance} as bigint)`,
          changes.lowBalanceAlert === undefined
            ? sql.ref('low_balance_alert')
            : sql`cast(${changes.lowBalanceAlert} as bigint)`,
        ),
      }),
    };
    if (Object.keys(values).length === 0) return this.find(id);
    const row = await this.db
      .updateTable('users')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toUser(row);
  }

  async delete(id: number): Promise<UserRecord | undefined> {
    const row = await this.db.deleteFrom('users').where('id', '=', id).returningAll().executeTakeFirst();
    return row && toUser(row);
  }
}

/**
 * The `balance.low` flag after a balance or threshold change: cleared when the new balance stands at
 * or above the new threshold (or there is none), so the next fall below it sends the event again.
 */
export function alertedUnlessAbove(balance: RawBuilder<unknown>, threshold: RawBuilder<unknown>) {
  return sql<boolean>`case when ${threshold} is null or ${balance} >= ${threshold} then false else low_balance_alerted end`;
}

export function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: Number(row.id),
    username: row.username,
    passwordHash: row.password_hash,
    role: row.role as UserRole,
    group: row.group_name,
    balance: Number(row.balance),
    used: Number(row.used),
    language: row.language as UserRecord['language'],
    status: row.status as UserStatus,
    budgets: readJsonColumn<Budget[]>(row.budgets, 'users.budgets'),
    maxConcurrency: row.max_concurrency,
    lowBalanceAlert: row.low_balance_alert === null ? null : Number(row.low_balance_alert),
    createdAt: Number(row.created_at),
  };
}
