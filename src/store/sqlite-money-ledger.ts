import type SqliteDatabase from 'better-sqlite3';
import { GroupCommit } from './group-commit.js';
import type { Hold, MoneyLedger } from './money-ledger.js';

/** Money moves on SQLite: prepared statements, applied by group commit. */
export function openSqliteMoneyLedger(database: SqliteDatabase.Database): MoneyLedger {
  const takeFromBalance = database.prepare(
    'update users set balance = balance - @amount where id = @userId and balance > 0 and balance >= @amount',
  );
  const takeFromQuota = database.prepare(
    'update api_keys set quota = quota - @amount where id = @keyId and quota >= @amount',
  );
  const returnToBalance = database.prepare('update users set balance = balance + @amount where id = @userId');
  const settleBalance = database.prepare(
    'update users set balance = balance + @refund, used = used + @cost where id = @userId',
  );
  const settleQuota = database.prepare(
    'update api_keys set quota = quota + @refund, used_quota = used_quota + @cost where id = @keyId',
  );
  const countKeyUse = database.prepare(
    'update api_keys set used_quota = used_quota + @cost where id = @keyId',
  );
  const readBalance = database.prepare('select balance from users where id = ?').pluck();
  const readQuota = database.prepare('select quota from api_keys where id = ?').pluck();
  const commits = new GroupCommit(database);

  const settle = (hold: Hold, cost: number) => {
    const values = { userId: hold.userId, keyId: hold.keyId, refund: hold.amount - cost, cost };
    settleBalance.run(values);
    (hold.keyCapped ? settleQuota : countKeyUse).run(values);
  };

  return {
    reserve: (hold) =>
      commits.submit(() => {
        if (takeFromBalance.run(hold).changes === 0) return 'balance' as const;
        if (hold.keyCapped && takeFromQuota.run(hold).changes === 0) {
          // Within the same transaction: the balance never shows the take to anyone.
          returnToBalance.run(hold);
          return 'quota' as const;
        }
        return 'reserved' as const;
      }),
    settle: (hold, cost) => commits.submit(() => settle(hold, cost)),
    release: (hold) => commits.submit(() => settle(hold, 0)),
    async balanceOf(userId) {
      return Number(readBalance.get(userId) ?? 0);
    },
    async quotaOf(keyId) {
      return Number(readQuota.get(keyId) ?? 0);
    },
  };
}
