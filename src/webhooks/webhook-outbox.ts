import type { Logger } from '../observability/logger.js';
import type { WebhookEventsRepository } from '../store/webhook-events-repository.js';
import type { WebhookEvent } from './webhook-event.js';

/**
 * Where events decided outside a money move are stored for delivery. Storing never holds up the
 * request that caused the event; a failure is logged (the event's next occurrence is decided again).
 */
export class WebhookOutbox {
  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly logger: Logger,
  ) {}

  add(event: WebhookEvent): void {
    this.events.add(event).catch((error: unknown) => {
      this.logger.warn({ err: error, event: event.type }, 'could not store a webhook event');
    });
  }
}
