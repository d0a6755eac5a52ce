import type SqliteDatabase from 'better-sqlite3';
import { lowBalanceEvent } from '../events/webhooks/balance-events.js';
import type { WebhookEvent } from '../events/webhooks/webhook-event.js';

/**
 * The users of a group commit whose settlements may have taken their balance below their
 * `low_balance_alert` (admin-api section 10.1), checked after the group's balances are written:
 * one `balance.low` event when the balance is below it and no event was sent since the balance
 * last stood at or above it; the flag is cleared once it does again.
 */
export class LowBalanceWatch {
  private readonly watched = new Map<number, number>();
  private readonly read: SqliteDatabase.Statement<[number], { balance: number; alerted: number }>;
  private readonly mark: SqliteDatabase.Statement<[number, number]>;

  constructor(
    database: SqliteDatabase.Database,
    private readonly store: (event: WebhookEvent) => void,
  ) {
    this.read = database.prepare('select balance, low_balance_alerted as alerted from users where id = ?');
    this.mark = database.prepare('update users set low_balance_alerted = ? where id = ?');
  }

  begin(): void {
    this.watched.clear();
  }

  watch(userId: number, threshold: number): void {
    this.watched.set(userId, threshold);
  }

  /** After the balances are written: decides each watched user's event. */
  write(): void {
    for (const [userId, threshold] of this.watched) {
      const row = this.read.get(userId);
      if (!row) continue;
      const below = row.balance < threshold;
      if (below === Boolean(row.alerted)) continue;
      this.mark.run(below ? 1 : 0, userId);
      if (below) this.store(lowBalanceEvent(userId, row.balance, threshold, Math.floor(Date.now() / 1000)));
    }
  }
}
