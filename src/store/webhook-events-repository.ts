import type { Kysely } from 'kysely';
import type { WebhookEvent } from '../events/webhooks/webhook-event.js';
import type { Database, WebhookEventsTable } from './schema.js';

/** An event as the delivery worker and `GET /api/webhook-deliveries` read it. */
export interface StoredWebhookEvent {
  id: string;
  type: string;
  body: string;
  createdAt: number;
  status: WebhookEventsTable['status'];
  attempts: number;
  lastStatusCode: number | null;
}

/**
 * The outbox of event webhooks (admin-api section 10.1). An event's id says what it is about, so
 * storing one that is stored already changes nothing; an attempt is claimed by moving the event's
 * next attempt past the attempt's own deadline, so one instance at a time delivers it and one that
 * dies mid-attempt leaves it due again.
 */
export class WebhookEventsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the event unless one with its id is stored; true when this call stored it. */
  async add(event: WebhookEvent): Promise<boolean> {
    const result = await this.db
      .insertInto('webhook_events')
      .values({
        id: event.id,
        type: event.type,
        body: event.body,
        created_at: event.createdAt,
        status: 'pending',
        attempts: 0,
        next_attempt_at: event.createdAt * 1000,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Ids of pending events whose next attempt is due at `nowMs`, oldest first. */
  async due(nowMs: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_events')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', nowMs)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Claims the event's next attempt until `untilMs` when it is still due at `nowMs`; answers the
   * event (its attempts counting this one), or undefined when another instance has it.
   */
  async claim(id: string, nowMs: number, untilMs: number): Promise<StoredWebhookEvent | undefined> {
    const claimed = await this.db
      .updateTable('webhook_events')
      .set((eb) => ({ next_attempt_at: untilMs, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', nowMs)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return undefined;
    const row = await this.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toEvent(row);
  }

  /** Records an attempt's answer: delivered, due again at `retryAtMs`, or failed for good. */
  async recordAttempt(
    id: string,
    outcome: { statusCode: number | null } & (
      { status: 'delivered' | 'failed' } | { status: 'pending'; retryAtMs: number }
    ),
  ): Promise<void> {
    await this.db
      .updateTable('webhook_events')
      .set({
        status: outcome.status,
        last_status_code: outcome.statusCode,
        ...(outcome.status === 'pending' ? { next_attempt_at: outcome.retryAtMs } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  /** The newest events first. */
  async recent(options: { limit: number; offset: number }): Promise<StoredWebhookEvent[]> {
    const rows = await this.db
      .selectFrom('webhook_events')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map(toEvent);
  }
}

function toEvent(row: WebhookEventsTable): StoredWebhookEvent {
  return {
    id: row.id,
    type: row.type,
    body: row.body,
    createdAt: Number(row.created_at),
    status: row.status,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
  };
}
