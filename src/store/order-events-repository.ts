import type { Kysely, Transaction } from 'kysely';
import { readNullableJsonColumn } from './json-column.js';
import type { Database } from './schema.js';

/** What happened to an order, in the words admins read in `GET /api/orders`. */
export type OrderEventType =
  | 'created'
  | 'checkout_created'
  | 'checkout_failed'
  | 'webhook_received'
  | 'webhook_replayed'
  | 'checked'
  | 'credited'
  | 'expired'
  | 'amount_mismatch'
  | 'session_mismatch'
  | 'user_gone';

export interface OrderEvent {
  id: number;
  orderId: string;
  type: OrderEventType;
  at: number;
  /** The Stripe event id a webhook event came from. */
  reference: string | null;
  detail: Record<string, unknown> | null;
}

export interface NewOrderEvent {
  orderId: string;
  type: OrderEventType;
  reference?: string | undefined;
  detail?: Record<string, unknown> | undefined;
}

/** The history of orders, appended to and never changed. */
export class OrderEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends an event; in the caller's transaction when one is given, so it commits with what it tells. */
  async record(event: NewOrderEvent, trx: Kysely<Database> | Transaction<Database> = this.db): Promise<void> {
    await trx
      .insertInto('order_events')
      .values({
        order_id: event.orderId,
        type: event.type,
        at: Math.floor(Date.now() / 1000),
        reference: event.reference ?? null,
        detail: event.detail === undefined ? null : JSON.stringify(event.detail),
      })
      .execute();
  }

  /** Whether an event with this reference (a Stripe event id) was recorded for the order. */
  async seen(orderId: string, reference: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', orderId)
      .where('reference', '=', reference)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The events of each order, oldest first. */
  async forOrders(orderIds: readonly string[]): Promise<Map<string, OrderEvent[]>> {
    const events = new Map<string, OrderEvent[]>(orderIds.map((id) => [id, []]));
    if (orderIds.length === 0) return events;
    const rows = await this.db
      .selectFrom('order_events')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('order_id')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      events.get(row.order_id)?.push({
        id: Number(row.id),
        orderId: row.order_id,
        type: row.type as OrderEventType,
        at: Number(row.at),
        reference: row.reference,
        detail: readNullableJsonColumn(row.detail, 'order_events.detail'),
      });
    }
    return events;
  }
}
