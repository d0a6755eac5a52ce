import { sql, type Kysely } from 'kysely';
import { GatewayError } from '../errors/gateway-error.js';
import type { Database } from '../store/schema.js';
import { formatUsd } from './money.js';

/** Money held for one request until it settles or is released, exactly once. */
export class Reservation {
  private state: 'held' | 'settled' | 'released' = 'held';

  constructor(
    readonly userId: number,
    readonly keyId: number,
    /** Whether the key's own quota was reserved too. */
    readonly keyCapped: boolean,
    /** nano-USD */
    readonly amount: number,
  ) {}

  /** Marks the reservation closed; returns false when it already was, so money moves once. */
  close(outcome: 'settled' | 'released'): boolean {
    if (this.state !== 'held') return false;
    this.state = outcome;
    return true;
  }
}

export interface ReserveRequest {
  userId: number;
  keyId: number;
  keyCapped: boolean;
  /** nano-USD */
  amount: number;
}

/**
 * Atomic reservation and settlement against user balances and key quotas (admin-api section 3).
 * Each reservation is a conditional update, so concurrent requests can never together take more
 * than the balance or the key's cap, on SQLite and on PostgreSQL alike.
 */
export class BalanceLedger {
  constructor(private readonly db: Kysely<Database>) {}

  async reserve(request: ReserveRequest): Promise<Reservation> {
    const { userId, keyId, keyCapped, amount } = request;
    const taken = await this.db
      .updateTable('users')
      .set({ balance: sql`balance - ${amount}` })
      .where('id', '=', userId)
      .where('balance', '>', 0)
      .where('balance', '>=', amount)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw await this.balanceError(userId, amount);

    if (keyCapped) {
      const held = await this.db
        .updateTable('api_keys')
        .set({ quota: sql`quota - ${amount}` })
        .where('id', '=', keyId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) {
        await this.db
          .updateTable('users')
          .set({ balance: sql`balance + ${amount}` })
          .where('id', '=', userId)
          .execute();
        throw await this.keyQuotaError(keyId, amount);
      }
    }
    return new Reservation(userId, keyId, keyCapped, amount);
  }

  /** Charges the real cost and returns the reservation in one transaction. */
  async settle(reservation: Reservation, cost: number): Promise<void> {
    if (!reservation.close('settled')) return;
    const refund = reservation.amount - cost;
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('users')
        .set({ balance: sql`balance + ${refund}`, used: sql`used + ${cost}` })
        .where('id', '=', reservation.userId)
        .execute();
      await transaction
        .updateTable('api_keys')
        .set(
          reservation.keyCapped
            ? { quota: sql`quota + ${refund}`, used_quota: sql`used_quota + ${cost}` }
            : { used_quota: sql`used_quota + ${cost}` },
        )
        .where('id', '=', reservation.keyId)
        .execute();
    });
  }

  /** Gives the whole reservation back: the request failed and costs nothing. */
  async release(reservation: Reservation): Promise<void> {
    if (!reservation.close('released')) return;
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('users')
        .set({ balance: sql`balance + ${reservation.amount}` })
        .where('id', '=', reservation.userId)
        .execute();
      if (reservation.keyCapped) {
        await transaction
          .updateTable('api_keys')
          .set({ quota: sql`quota + ${reservation.amount}` })
          .where('id', '=', reservation.keyId)
          .execute();
      }
    });
  }

  private async balanceError(userId: number, amount: number): Promise<GatewayError> {
    const user = await this.db
      .selectFrom('users')
      .select('balance')
      .where('id', '=', userId)
      .executeTakeFirst();
    const balance = Number(user?.balance ?? 0);
    if (balance <= 0) return new GatewayError('balance_exhausted', { balance: formatUsd(balance) });
    return new GatewayError('balance_below_precharge', {
      balance: formatUsd(balance),
      need: formatUsd(amount),
    });
  }

  private async keyQuotaError(keyId: number, amount: number): Promise<GatewayError> {
    const key = await this.db
      .selectFrom('api_keys')
      .select('quota')
      .where('id', '=', keyId)
      .executeTakeFirst();
    return new GatewayError('key_quota_below_precharge', {
      remain: formatUsd(Number(key?.quota ?? 0)),
      need: formatUsd(amount),
    });
  }
}
