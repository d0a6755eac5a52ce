import type { Logger } from '../../observability/logger.js';
import type { WebhookEventsRepository } from '../../store/webhook-events-repository.js';
import type { WebhookEvent } from './webhook-event.js';

/** Ids remembered as stored; past this many the memory starts over (a repeat write changes nothing). */
const REMEMBERED_IDS = 10_000;
/** Writes in flight at once; an event that finds them all busy is decided again by its next occurrence. */
const WRITES_IN_FLIGHT = 32;

/**
 * Where events decided outside a money move are stored for delivery (a window's first refusal).
 * Storing never holds up the request that caused the event, and a flood of refusals of one window
 * costs one write: the ids stored are remembered, and writes in flight are bounded, so a slow
 * database never grows memory. An event not stored (a failure, or writes all busy) is stored by a
 * later refusal of the same window, whose event has the same id.
 */
export class WebhookOutbox {
  private readonly stored = new Set<string>();
  private writing = 0;

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly logger: Logger,
  ) {}

  add(event: WebhookEvent): void {
    if (this.stored.has(event.id) || this.writing >= WRITES_IN_FLIGHT) return;
    if (this.stored.size >= REMEMBERED_IDS) this.stored.clear();
    this.stored.add(event.id);
    this.writing += 1;
    this.events
      .add(event)
      .catch((error: unknown) => {
        this.stored.delete(event.id);
        this.logger.warn({ err: error, event: event.type }, 'could not store a webhook event');
      })
      .finally(() => {
        this.writing -= 1;
      });
  }
}
