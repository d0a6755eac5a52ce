import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, OrdersTable } from './schema.js';

export type OrderStatus = 'pending' | 'paid' | 'expired';

export type PaymentProvider = 'stripe';

/** A top-up paid through a payment provider (admin-api section 15). */
export interface OrderRecord {
  id: string;
  /** Null once the user was deleted. */
  userId: number | null;
  /** nano-USD */
  amount: number;
  status: OrderStatus;
  provider: PaymentProvider;
  /** The Checkout Session id; null until Stripe answered. */
  providerRef: string | null;
  createdAt: number;
  paidAt: number | null;
  nextCheckAt: number | null;
  problem: string | null;
}

export interface OrderFilter {
  userId?: number | undefined;
  status?: OrderStatus | undefined;
}

type Writer = Kysely<Database> | Transaction<Database>;

/**
 * Orders and their status. The two changes that move money or end an order (`markPaid`,
 * `markExpired`) are single conditional statements that take the caller's transaction, so that of
 * any number of callers at the same moment exactly one sees a row changed.
 */
export class OrdersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(
    order: { id: string; userId: number; amount: number; provider: PaymentProvider; now: number },
    trx: Writer = this.db,
  ): Promise<OrderRecord> {
    const row = await trx
      .insertInto('orders')
      .values({
        id: order.id,
        user_id: order.userId,
        amount: order.amount,
        status: 'pending',
        provider: order.provider,
        created_at: order.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOrder(row);
  }

  async find(id: string): Promise<OrderRecord | undefined> {
    const row = await this.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toOrder(row);
  }

  async setProviderRef(id: string, providerRef: string): Promise<void> {
    await this.db.updateTable('orders').set({ provider_ref: providerRef }).where('id', '=', id).execute();
  }

  /** Newest first. */
  async list(filter: OrderFilter, page: { limit: number; offset: number }): Promise<OrderRecord[]> {
    let query = this.db.selectFrom('orders').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const rows = await query.orderBy('seq', 'desc').limit(page.limit).offset(page.offset).execute();
    return rows.map(toOrder);
  }

  /**
   * Pending orders created at or before `createdBefore` that are due for a check at `now` and not
   * held back, oldest first.
   */
  async dueForCheck(options: { createdBefore: number; now: number; limit: number }): Promise<OrderRecord[]> {
    const rows = await this.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'pending')
      .where('created_at', '<=', options.createdBefore)
      .where('problem', 'is', null)
      .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '<=', options.now)]))
      .orderBy('created_at')
      .orderBy('seq')
      .limit(options.limit)
      .execute();
    return rows.map(toOrder);
  }

  async checkAgainAt(id: string, at: number): Promise<void> {
    await this.db.updateTable('orders').set({ next_check_at: at }).where('id', '=', id).execute();
  }

  /** Keeps the order from any credit and any further check until an admin looks. */
  async holdBack(id: string, problem: string): Promise<void> {
    await this.db.updateTable('orders').set({ problem }).where('id', '=', id).execute();
  }

  /**
   * Pending or expired to paid, in one statement: an expired order paid after all is paid (its
   * money was taken). Returns whom to credit and how much, or undefined when the order was paid
   * already (or is gone). The Checkout Session id is kept when none was recorded.
   */
  async markPaid(
    trx: Writer,
    options: { id: string; providerRef: string; now: number },
  ): Promise<{ userId: number | null; amount: number } | undefined> {
    const row = await trx
      .updateTable('orders')
      .set((eb) => ({
        status: 'paid',
        paid_at: options.now,
        next_check_at: null,
        provider_ref: eb.fn.coalesce('provider_ref', eb.val(options.providerRef)),
      }))
      .where('id', '=', options.id)
      .where('status', 'in', ['pending', 'expired'])
      .where('problem', 'is', null)
      .returning(['user_id', 'amount'])
      .executeTakeFirst();
    return row && { userId: row.user_id === null ? null : Number(row.user_id), amount: Number(row.amount) };
  }

  /** Pending to expired; false when the order was not pending. */
  async markExpired(trx: Writer, id: string): Promise<boolean> {
    const result = await trx
      .updateTable('orders')
      .set({ status: 'expired', next_check_at: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function toOrder(row: Selectable<OrdersTable>): OrderRecord {
  return {
    id: row.id,
    userId: row.user_id === null ? null : Number(row.user_id),
    amount: Number(row.amount),
    status: row.status as OrderStatus,
    provider: row.provider as PaymentProvider,
    providerRef: row.provider_ref,
    createdAt: Number(row.created_at),
    paidAt: row.paid_at === null ? null : Number(row.paid_at),
    nextCheckAt: row.next_check_at === null ? null : Number(row.next_check_at),
    problem: row.problem,
  };
}
