import type { Kysely, Selectable } from 'kysely';
import type { Budget } from '../billing/budgets/budget.js';
import { readJsonColumn, readNullableJsonColumn, unixNow } from './json-column.js';
import type { ApiKeysTable, Database } from './schema.js';
import type { ListOptions } from './users-repository.js';

/** Stored status; `expired` and `exhausted` are derived when read (see derive-key-status.ts). */
export type StoredKeyStatus = 'enabled' | 'disabled';

export interface KeyRecord {
  id: number;
  userId: number;
  name: string;
  /** SHA-256 of the key without its `sk-` prefix. */
  keyHash: string;
  /** Masked form shown by reads. */
  keyHint: string;
  status: StoredKeyStatus;
  expiresAt: number | null;
  unlimitedQuota: boolean;
  /** nano-USD remaining when the quota is capped */
  quota: number;
  /** nano-USD */
  usedQuota: number;
  modelLimits: string[] | null;
  ipAllowList: string[] | null;
  group: string | null;
  rpm: number | null;
  tpm: number | null;
  /** Spending windows of this key alone (admin-api section 10). */
  budgets: Budget[];
  maxConcurrency: number | null;
  /** Whether the bodies of its requests are stored (admin-api section 12); null follows the group. */
  logBodies: boolean | null;
  createdAt: number;
}

type SpendLimits = 'budgets' | 'maxConcurrency' | 'logBodies';

/** Without spend limits given, a key has no budgets and no concurrency cap, and follows its group on bodies. */
export type NewKey = Omit<KeyRecord, 'id' | 'usedQuota' | 'createdAt' | SpendLimits> &
  Partial<Pick<KeyRecord, SpendLimits>>;
export type KeyChanges = Partial<
  Omit<KeyRecord, 'id' | 'userId' | 'keyHash' | 'keyHint' | 'usedQuota' | 'createdAt'>
>;

export class KeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(key: NewKey): Promise<KeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({
        user_id: key.userId,
        name: key.name,
        key_hash: key.keyHash,
        key_hint: key.keyHint,
        status: key.status,
        expires_at: key.expiresAt,
        unlimited_quota: Number(key.unlimitedQuota),
        quota: key.quota,
        used_quota: 0,
        model_limits: key.modelLimits && JSON.stringify(key.modelLimits),
        ip_allow_list: key.ipAllowList && JSON.stringify(key.ipAllowList),
        group_name: key.group,
        rpm: key.rpm,
        tpm: key.tpm,
        budgets: JSON.stringify(key.budgets ?? []),
        max_concurrency: key.maxConcurrency ?? null,
        log_bodies: storedFlag(key.logBodies ?? null),
        created_at: unixNow(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toKey(row);
  }

  async find(id: number): Promise<KeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toKey(row);
  }

  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    return row && toKey(row);
  }

  async list(options: ListOptions & { userId?: number }): Promise<KeyRecord[]> {
    let query = this.db.selectFrom('api_keys').selectAll();
    if (options.userId !== undefined) query = query.where('user_id', '=', options.userId);
    const rows = await query.orderBy('id', 'desc').limit(options.limit).offset(options.offset).execute();
    return rows.map(toKey);
  }

  async update(id: number, changes: KeyChanges): Promise<KeyRecord | undefined> {
    const values = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.status !== undefined && { status: changes.status }),
      ...(changes.expiresAt !== undefined && { expires_at: changes.expiresAt }),
      ...(changes.unlimitedQuota !== undefined && { unlimited_quota: Number(changes.unlimitedQuota) }),
      ...(changes.quota !== undefined && { quota: changes.quota }),
      ...(changes.modelLimits !== undefined && {
        model_limits: changes.modelLimits && JSON.stringify(changes.modelLimits),
      }),
      ...(changes.ipAllowList !== undefined && {
        ip_allow_list: changes.ipAllowList && JSON.stringify(changes.ipAllowList),
      }),
      ...(changes.group !== undefined && { group_name: changes.group }),
      ...(changes.rpm !== undefined && { rpm: changes.rpm }),
      ...(changes.tpm !== undefined && { tpm: changes.tpm }),
      ...(changes.budgets !== undefined && { budgets: JSON.stringify(changes.budgets) }),
      ...(changes.maxConcurrency !== undefined && { max_concurrency: changes.maxConcurrency }),
      ...(changes.logBodies !== undefined && { log_bodies: storedFlag(changes.logBodies) }),
    };
    if (Object.keys(values).length === 0) return this.find(id);
    const row = await this.db
      .updateTable('api_keys')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toKey(row);
  }

  async delete(id: number): Promise<KeyRecord | undefined> {
    const row = await this.db.deleteFrom('api_keys').where('id', '=', id).returningAll().executeTakeFirst();
    return row && toKey(row);
  }
}

export function toKey(row: Selectable<ApiKeysTable>): KeyRecord {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    name: row.name,
    keyHash: row.key_hash,
    keyHint: row.key_hint,
    status: row.status as StoredKeyStatus,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    unlimitedQuota: Boolean(row.unlimited_quota),
    quota: Number(row.quota),
    usedQuota: Number(row.used_quota),
    modelLimits: readNullableJsonColumn<string[]>(row.model_limits, 'api_keys.model_limits'),
    ipAllowList: readNullableJsonColumn<string[]>(row.ip_allow_list, 'api_keys.ip_allow_list'),
    group: row.group_name,
    rpm: row.rpm,
    tpm: row.tpm,
    budgets: readJsonColumn<Budget[]>(row.budgets, 'api_keys.budgets'),
    maxConcurrency: row.max_concurrency,
    logBodies: row.log_bodies === null ? null : Boolean(row.log_bodies),
    createdAt: Number(row.created_at),
  };
}

/** A nullable boolean as both stores take it (0/1 on SQLite). */
function storedFlag(value: boolean | null): number | null {
  return value === null ? null : Number(value);
}
