import { randomUUID } from 'node:crypto';
import type { JobLeasesRepository } from '../store/job-leases-repository.js';
import { unixNow } from '../store/json-column.js';
import type { OrderRecord } from '../store/orders-repository.js';
import { applyCheckoutSession } from './apply-checkout-session.js';
import { readCheckoutSessionState } from './checkout-session-state.js';
import { describeStripeError } from './describe-stripe-error.js';
import type { Payments } from './payments.js';
import { expireOrder } from './settle-order.js';

const LEASE = 'topup-reconciler';
/**
 * Renewed before each order. A check that outlasts it (Stripe slow, retries and all) may be made
 * again by another instance: harmless, since an order is credited once whoever checks it.
 */
const LEASE_TTL_MS = 30_000;
const DEFAULT_INTERVAL_MS = 60_000;
/** Orders checked per run; the rest wait for the next. */
const ORDERS_PER_RUN = 100;
/**
 * An order without a session this old never had its payment page handed out (the process died
 * between Stripe's answer and storing it, or before asking): nothing can have been paid on it.
 * Far longer than a Checkout Session's creation may take, retries included.
 */
const NO_SESSION_GRACE_S = 3_600;

/**
 * How long an order still open at Stripe waits for its next check: a quarter of its age, between
 * a minute and an hour, so a fresh order is looked at often and one left open for a day about 30 times.
 */
export function nextCheckDelaySeconds(ageSeconds: number): number {
  return Math.min(3_600, Math.max(60, Math.floor(ageSeconds / 4)));
}

/**
 * The safety net under Stripe's webhooks (admin-api section 15): every minute, pending orders older
 * than `topup_reconcile_after_s` are checked against Stripe (`GET /v1/checkout/sessions/{id}`) and
 * credited when paid, through the same once-only transaction as the webhook, or expired when their
 * session expired. A lost, misconfigured or failing webhook therefore delays a credit; it never
 * loses one. Of all the processes sharing the database, the one holding the job's lease runs it.
 */
export class TopupReconciler {
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      payments: Payments;
      leases: Pick<JobLeasesRepository, 'claim' | 'release'>;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.run(), this.options.intervalMs ?? DEFAULT_INTERVAL_MS);
    this.timer.unref();
    // At once too: orders a killed process left are checked as soon as one starts again.
    void this.run();
  }

  /** One run, unless one is going already; resolves when it ends. */
  run(): Promise<void> {
    this.running ??= this.runOnce()
      .catch((error: unknown) =>
        this.options.payments.logger.warn({ err: error }, 'top-up reconciliation failed; next run retries'),
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async runOnce(): Promise<void> {
    const { payments, leases } = this.options;
    const settings = payments.settings();
    const client = payments.stripe.current(settings);
    if (this.stopped || !client) return;
    if (!(await leases.claim(LEASE, this.owner, LEASE_TTL_MS))) return;
    try {
      const now = unixNow();
      const due = await payments.repositories.orders.dueForCheck({
        createdBefore: now - settings.topup_reconcile_after_s,
        now,
        limit: ORDERS_PER_RUN,
      });
      for (const order of due) {
        if (this.stopped || !(await leases.claim(LEASE, this.owner, LEASE_TTL_MS))) return;
        await this.check(order, (id) => client.checkout.sessions.retrieve(id));
      }
    } finally {
      // Let go at once, so that a process started after this one dies need not wait for the lease.
      await leases.release(LEASE, this.owner).catch(() => undefined);
    }
  }

  private async check(order: OrderRecord, retrieve: (id: string) => Promise<unknown>): Promise<void> {
    const { payments } = this.options;
    const { orders, orderEvents } = payments.repositories;
    const now = unixNow();
    const age = now - order.createdAt;
    if (order.providerRef === null) {
      if (age >= NO_SESSION_GRACE_S)
        await expireOrder(payments, { order, by: 'reconciler', reason: 'no Checkout Session was recorded' });
      else await orders.checkAgainAt(order.id, now + nextCheckDelaySeconds(age));
      return;
    }
    let session;
    try {
      session = readCheckoutSessionState(await retrieve(order.providerRef));
      if (!session) throw new Error('Stripe answered something other than a Checkout Session');
    } catch (error) {
      const detail = describeStripeError(error);
      await orderEvents.record({
        orderId: order.id,
        type: 'checked',
        detail: { session: order.providerRef, error: detail },
      });
      await orders.checkAgainAt(order.id, now + nextCheckDelaySeconds(age));
      payments.logger.warn(
        { order: order.id, error: detail },
        'could not check an order with Stripe; will retry',
      );
      return;
    }
    await orderEvents.record({
      orderId: order.id,
      type: 'checked',
      detail: { session: session.id, status: session.status ?? null, payment_status: session.payment_status },
    });
    const outcome = await applyCheckoutSession(payments, { order, session, by: 'reconciler' });
    if (outcome === 'open') await orders.checkAgainAt(order.id, now + nextCheckDelaySeconds(age));
  }
}
