import { GatewayError } from '../errors/gateway-error.js';
import type { HeldMoney, Hold, MoneyLedger } from '../store/money-ledger.js';
import type { LoggedBody } from '../store/usage-log-bodies-repository.js';
import type { NewUsageLog } from '../store/usage-logs-repository.js';
import { windowRefusalError } from './budgets/budget-refusal.js';
import type { WindowRefusal } from './budgets/window-charge.js';
import { formatUsd } from './money.js';
import { exceededEvent } from '../events/webhooks/budget-events.js';
import type { WebhookOutbox } from '../events/webhooks/webhook-outbox.js';

/**
 * Bodies waiting for a batch, in UTF-16 units (a few batches of the largest bodies): more waits
 * only while the database is failing.
 */
const MAX_WAITING_BODIES_SIZE = 64 * 1024 * 1024;
const BODY_BATCH_TRIES = 3;

/** Money held for one request until it settles or is released, exactly once. */
export class Reservation {
  private state: 'held' | 'settled' | 'released' = 'held';

  constructor(
    /** The durable hold (its id is the request id; amounts in nano-USD). */
    readonly hold: HeldMoney,
  ) {}

  /** Marks the reservation closed; returns false when it already was, so money moves once. */
  close(outcome: 'settled' | 'released'): boolean {
    if (this.state !== 'held') return false;
    this.state = outcome;
    return true;
  }
}

/** A hold as the relay asks for it: its id is the request's, its owner and time are the ledger's. */
export type ReserveRequest = Omit<Hold, 'id' | 'owner' | 'createdAt'> & { requestId: string };

/**
 * Reservation and settlement against user balances and key quotas (admin-api section 3). Each move
 * is atomic in the database and tied to the request's durable hold, so concurrent requests can
 * never together take more than the balance or the key's cap, a repeated settlement moves nothing,
 * and the money of a process that dies is found and returned by the hold keeper.
 */
export class BalanceLedger {
  private stopped = false;
  private unstored = 0;
  private storing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly outbox: WebhookOutbox | undefined;
  /** Bodies waiting for the next batch, and their size in UTF-16 units. */
  private bodies: LoggedBody[] = [];
  private bodiesSize = 0;
  /** Batches with bodies that failed in a row. */
  private failedBodyBatches = 0;
  private readonly onBodyDropped: ((count: number) => void) | undefined;

  constructor(
    private readonly ledger: MoneyLedger,
    /** The lease owner this process's holds are recorded under. */
    private readonly owner: string,
    options: {
      /** How often settled records move to `usage_logs`, many in one commit. */
      storeIntervalMs?: number;
      onStoreError?: (error: unknown) => void;
      /** Where the `budget.exceeded` events of refused requests go. */
      outbox?: WebhookOutbox;
      /** Hears each logged body dropped because the batches could not keep up (see `logBody`). */
      onBodyDropped?: (count: number) => void;
    } = {},
  ) {
    this.outbox = options.outbox;
    this.onBodyDropped = options.onBodyDropped;
    this.timer = setInterval(() => {
      if (this.unstored > 0 || this.bodies.length > 0)
        this.storeRecords().catch((error: unknown) => options.onStoreError?.(error));
    }, options.storeIntervalMs ?? 200);
    this.timer.unref();
  }

  /**
   * Reserves `request.amount` (and its place in the request's windows). When that is refused and
   * `closer` gives less (the request counted with more care than the first), the closer request is
   * tried and decides.
   */
  async reserve(
    request: ReserveRequest,
    closer?: () => Pick<ReserveRequest, 'amount' | 'budget'>,
  ): Promise<Reservation> {
    let hold = this.holdOf(request);
    let outcome = await this.ledger.reserve(hold);
    if (outcome !== 'reserved' && closer) {
      const closerRequest = closer();
      if (closerRequest.amount < request.amount) {
        request = { ...request, ...closerRequest };
        hold = this.holdOf(request);
        outcome = await this.ledger.reserve(hold);
      }
    }
    if (typeof outcome === 'object') throw this.refusedByWindow(hold, outcome);
    if (outcome === 'balance') {
      const balance = await this.ledger.balanceOf(request.userId);
      if (balance <= 0) throw new GatewayError('balance_exhausted', { balance: formatUsd(balance) });
      throw new GatewayError('balance_below_precharge', {
        balance: formatUsd(balance),
        need: formatUsd(request.amount),
      });
    }
    if (outcome === 'quota') {
      throw new GatewayError('key_quota_below_precharge', {
        remain: formatUsd(await this.ledger.quotaOf(request.keyId)),
        need: formatUsd(request.amount),
      });
    }
    return new Reservation(hold);
  }

  private holdOf(request: ReserveRequest): Hold {
    const { requestId, ...hold } = request;
    // The spread last, as in `authenticate`: V8 adds members after a spread on a slow path.
    return { id: requestId, owner: this.owner, createdAt: Math.floor(Date.now() / 1000), ...hold };
  }

  /** The client's error for a window that refused; the window's first refusal is an event too. */
  private refusedByWindow(hold: Hold, refusal: WindowRefusal): GatewayError {
    const window = hold.budget!.windows[refusal.window]!;
    if (this.outbox && hold.budget!.events && window.period !== 'concurrency') {
      this.outbox.add(exceededEvent(window, refusal, refusal.used, hold.createdAt));
    }
    return windowRefusalError(window, refusal, Date.now());
  }

  /**
   * Charges the real cost, returns the rest of the reservation and records the usage in the hold,
   * in one step. False when the hold was gone: returned as interrupted while this process could not renew
   * its lease, so nothing was charged.
   */
  async settle(reservation: Reservation, cost: number, record: NewUsageLog): Promise<boolean> {
    if (!reservation.close('settled')) return false;
    return this.settled(await this.persist(() => this.ledger.settle(reservation.hold, cost, record)));
  }

  /** Gives the whole reservation back (the request failed and costs nothing) and stores the record. */
  async release(reservation: Reservation, record: NewUsageLog): Promise<boolean> {
    if (!reservation.close('released')) return false;
    return this.settled(
      await this.persist(() => this.ledger.settle(reservation.hold, 0, { ...record, cost: 0 }, false)),
    );
  }

  /**
   * Stores a request's bodies (admin-api section 12) with the next batch of usage records. They
   * wait in memory until then, not in a hold: a process killed meanwhile loses the bodies of its
   * last moments, never money or records. While the database cannot take the batches, bodies past
   * `MAX_WAITING_BODIES_SIZE` are dropped rather than let memory grow.
   */
  logBody(body: LoggedBody): void {
    const size = (body.requestBody?.length ?? 0) + (body.responseBody?.length ?? 0);
    if (this.bodiesSize + size > MAX_WAITING_BODIES_SIZE) {
      this.onBodyDropped?.(1);
      return;
    }
    this.bodies.push(body);
    this.bodiesSize += size;
  }

  /**
   * Moves the usage records of settled holds to `usage_logs` (they are durable in the holds
   * already), and the bodies logged so far: every record settled and every body logged before the
   * call is readable through the logs after it.
   */
  async storeRecords(): Promise<void> {
    while (this.storing) await this.storing.catch(() => undefined);
    const pending = this.unstored;
    const { bodies, bodiesSize } = this;
    this.bodies = [];
    this.bodiesSize = 0;
    // After batches with bodies failed a few times, one goes without them: if it is stored, the
    // bodies were the cause and are dropped, so they can never hold the records back.
    const withoutBodies = this.failedBodyBatches >= BODY_BATCH_TRIES;
    this.storing = this.ledger.storeRecords(this.owner, withoutBodies ? [] : bodies).then(
      () => {
        this.unstored -= pending;
        this.failedBodyBatches = 0;
        if (withoutBodies && bodies.length > 0) this.onBodyDropped?.(bodies.length);
      },
      (error: unknown) => {
        this.failedBodyBatches = withoutBodies || bodies.length === 0 ? 0 : this.failedBodyBatches + 1;
        this.bodies = bodies.concat(this.bodies);
        this.bodiesSize += bodiesSize;
        throw error;
      },
    );
    try {
      await this.storing;
    } finally {
      this.storing = undefined;
    }
  }

  /** Settled records not yet moved to `usage_logs`. */
  get unstoredRecords(): number {
    return this.unstored;
  }

  /** Stops the periodic move and makes the last one. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.storeRecords();
  }

  private settled(outcome: boolean): boolean {
    if (outcome) this.unstored += 1;
    return outcome;
  }

  /**
   * Shutdown: settlements still failing stop being retried. Their holds stay in the database and
   * are returned, as interrupted, when the next process starts.
   */
  stopRetrying(): void {
    this.stopped = true;
  }

  /**
   * A settlement must land even through a database outage: it is tried again with growing waits
   * (0.1 s doubling up to 5 s) for as long as the process runs. Each attempt is one atomic move
   * keyed by the hold, so an attempt whose acknowledgement was lost is not applied twice.
   */
  private async persist(move: () => Promise<boolean>): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await move();
      } catch (error) {
        if (this.stopped) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** (attempt - 1))));
      }
    }
  }
}
