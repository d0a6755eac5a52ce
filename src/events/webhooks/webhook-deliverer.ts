import type { Settings } from '../../config/settings-schema.js';
import type { Logger } from '../../observability/logger.js';
import type { StoredWebhookEvent, WebhookEventsRepository } from '../../store/webhook-events-repository.js';
import { webhookSignature } from './webhook-signature.js';

/** An attempt that has no answer within this long failed (admin-api section 10.1). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An attempt claims its event this long: past it, a dead deliverer's attempt is due again. */
const ATTEMPT_CLAIM_MS = 30_000;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 3_600_000;
/** Attempts go on for at least 24 hours after the event; this long after it, one more failure is the last. */
const GIVE_UP_AFTER_MS = 25 * 3_600_000;
/** Events read per round: however many are due, memory holds this many at most. */
const EVENTS_PER_ROUND = 16;

/** What one attempt to deliver an event came to. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/**
 * Delivers stored events to `webhook_url` off the request path, each at least once (10.1): one
 * round per interval reads a page of due events, claims each (so one instance at a time delivers
 * it), posts it signed, and records the answer. A non-2xx answer, or none within 10 s, is retried
 * with waits that double from 10 s up to an hour, until a day has passed.
 */
export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly options: {
      events: WebhookEventsRepository;
      settings: () => Readonly<Settings>;
      logger: Logger;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.round(), this.options.intervalMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Delivers what is due now; a round still running is not started twice. */
  round(): Promise<void> {
    this.running ??= this.deliverDue()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'webhook delivery round failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async deliverDue(): Promise<void> {
    const { events, settings } = this.options;
    const { webhook_url: url, webhook_secret: secret } = settings();
    if (url === null) return;
    for (const id of await events.due(Date.now(), EVENTS_PER_ROUND)) {
      // The clock read again for each claim: an attempt before it may have taken up to its timeout.
      const now = Date.now();
      const event = await events.claim(id, now, now + ATTEMPT_CLAIM_MS);
      if (!event) continue;
      const result = await postEvent(url, secret, event.body);
      await events.recordAttempt(id, nextState(event, result, Date.now()));
      if (result.statusCode === null || result.statusCode >= 300)
        this.options.logger.warn(
          {
            event: event.id,
            type: event.type,
            attempts: event.attempts,
            status: result.statusCode,
            error: result.error,
          },
          'webhook delivery failed; will retry',
        );
    }
  }
}

/** Posts one event body, signed when a secret is set; the answer's body is not read. */
export async function postEvent(url: string, secret: string | null, body: string): Promise<AttemptResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret !== null)
    headers['x-gateway-signature'] = webhookSignature(body, secret, Math.floor(Date.now() / 1000));
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { statusCode: response.status, error: null };
  } catch (error) {
    return { statusCode: null, error: error instanceof Error ? error.message : String(error) };
  }
}

function nextState(event: StoredWebhookEvent, result: AttemptResult, nowMs: number) {
  const { statusCode } = result;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300)
    return { status: 'delivered' as const, statusCode };
  if (nowMs - event.createdAt * 1000 >= GIVE_UP_AFTER_MS) return { status: 'failed' as const, statusCode };
  const wait = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(20, event.attempts - 1));
  return { status: 'pending' as const, statusCode, retryAtMs: nowMs + wait };
}
