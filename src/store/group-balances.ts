import type SqliteDatabase from 'better-sqlite3';

/** One user's balance or one key's quota, as a group commit moves it. */
interface Account {
  id: number;
  /** The stored amount when the group read it; read only when a take needs it. */
  stored: number | undefined;
  /** What the group moved so far: the update adds it to the stored amount. */
  change: number;
  /** What the group added to `used` (a user) or `used_quota` (a key). */
  usedChange: number;
}

/**
 * The balances and key quotas a group commit moves, kept in memory during the group's transaction
 * and written as one update per user and per key just before it commits. Concurrent requests of
 * one user share a group, so this takes two or three statements per request off its path. The
 * transaction holds the write lock from its first statement (`immediate`) and the group's moves run
 * synchronously inside it, so an amount read here stays the stored amount until the update:
 * nothing else writes in between, in this process or another.
 */
export class GroupBalances {
  private readonly users = new Map<number, Account>();
  private readonly keys = new Map<number, Account>();
  private readonly readBalance: SqliteDatabase.Statement<[number], number>;
  private readonly readQuota: SqliteDatabase.Statement<[number], number>;
  private readonly writeUser: SqliteDatabase.Statement<[number, number, number]>;
  private readonly writeKey: SqliteDatabase.Statement<[number, number, number]>;

  constructor(database: SqliteDatabase.Database) {
    this.readBalance = database.prepare<[number], number>('select balance from users where id = ?').pluck();
    this.readQuota = database.prepare<[number], number>('select quota from api_keys where id = ?').pluck();
    this.writeUser = database.prepare('update users set balance = balance + ?, used = used + ? where id = ?');
    this.writeKey = database.prepare(
      'update api_keys set quota = quota + ?, used_quota = used_quota + ? where id = ?',
    );
  }

  /** Starts a group: forgets the amounts the group before read and moved (or rolled back). */
  begin(): void {
    this.users.clear();
    this.keys.clear();
  }

  /**
   * Takes `amount` from a positive balance that covers it and, for a capped key, from a quota that
   * covers it too: both or neither. Says which one refused; a user or key that is not stored
   * refuses.
   */
  take(hold: {
    userId: number;
    keyId: number;
    keyCapped: boolean;
    amount: number;
  }): 'taken' | 'balance' | 'quota' {
    const user = account(this.users, hold.userId);
    const balance = current(user, this.readBalance);
    if (balance === undefined || !(balance > 0 && balance >= hold.amount)) return 'balance';
    const key = hold.keyCapped ? account(this.keys, hold.keyId) : undefined;
    if (key) {
      const quota = current(key, this.readQuota);
      if (quota === undefined || quota < hold.amount) return 'quota';
      key.change -= hold.amount;
    }
    user.change -= hold.amount;
    return 'taken';
  }

  /** Charges `cost` against a hold: the rest of its amount goes back, the `used` counters grow. */
  charge(hold: { userId: number; keyId: number; keyCapped: boolean; amount: number }, cost: number): void {
    const refund = hold.amount - cost;
    const user = account(this.users, hold.userId);
    user.change += refund;
    user.usedChange += cost;
    const key = account(this.keys, hold.keyId);
    if (hold.keyCapped) key.change += refund;
    key.usedChange += cost;
  }

  /** Writes the group's moves; the last statement of the group's transaction. */
  write(): void {
    for (const user of this.users.values())
      if (user.change !== 0 || user.usedChange !== 0)
        this.writeUser.run(user.change, user.usedChange, user.id);
    for (const key of this.keys.values())
      if (key.change !== 0 || key.usedChange !== 0) this.writeKey.run(key.change, key.usedChange, key.id);
  }

  /** The stored balance, outside any group (a refusal's message prints it). */
  balanceOf(userId: number): number {
    return Number(this.readBalance.get(userId) ?? 0);
  }

  /** The stored quota, outside any group. */
  quotaOf(keyId: number): number {
    return Number(this.readQuota.get(keyId) ?? 0);
  }
}

function account(accounts: Map<number, Account>, id: number): Account {
  let found = accounts.get(id);
  if (!found) {
    found = { id, stored: undefined, change: 0, usedChange: 0 };
    accounts.set(id, found);
  }
  return found;
}

/** The amount as the group leaves it so far; undefined when no such row is stored. */
function current(found: Account, read: SqliteDatabase.Statement<[number], number>): number | undefined {
  if (found.stored === undefined) {
    const stored = read.get(found.id);
    if (stored === undefined) return undefined;
    found.stored = Number(stored);
  }
  return found.stored + found.change;
}
