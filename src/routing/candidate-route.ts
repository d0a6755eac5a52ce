import type {
  CandidateRoute,
  HealthChannel,
  PairAttempt,
  PairFailure,
  PairHold,
  PairState,
} from './channel-health.js';
import { orderByHealth, type PairAvailability } from './order-by-health.js';

export interface PairStatus extends PairAvailability {
  state: PairState;
  failures: number;
  untilMs: number;
  /** Set while the pair is held (`PairHold`): it is not tried, not even as the last resort. */
  hold?: PairHold | undefined;
}

/** What a route needs of the health service. */
export interface RouteHost {
  pairStatus(channelId: number, model: string): PairStatus;
  hasUsableKey(channel: HealthChannel): boolean;
  nextKey(channel: HealthChannel): string | undefined;
  /** A token when the pair is half-open and its trial slot was free; undefined otherwise. */
  claimTrial(channelId: number, model: string): number | undefined;
  releaseTrial(channelId: number, model: string, token: number): void;
  recordSuccess(channel: HealthChannel, model: string): void;
  recordFailure(channel: HealthChannel, model: string, failure: PairFailure): void;
  refuseKey(channel: HealthChannel, key: string): void;
}

/**
 * One request's walk over its candidates. Availability is judged again before each attempt, so a
 * pair whose trial another request took meanwhile is skipped, and a pair that failed for another
 * request since the walk began is not tried again.
 */
export class HealthRoute<C extends HealthChannel> implements CandidateRoute<C> {
  private readonly untried: C[];
  /** Once a pair that could be tried now was tried, cooling pairs stay skipped. */
  private triedReady = false;
  private retry: { channel: C; lastResort: boolean } | undefined;
  private attempted = false;
  /** The hold ending first among the candidates the last `next()` passed over. */
  private firstHold: PairHold | undefined;

  constructor(
    private readonly host: RouteHost,
    candidates: readonly C[],
    readonly model: string,
  ) {
    this.untried = [...candidates];
  }

  next(): PairAttempt<C> | undefined {
    const retry = this.retry;
    this.retry = undefined;
    if (retry && (retry.lastResort || this.host.pairStatus(retry.channel.id, this.model).ready)) {
      const attempt = this.start(retry.channel, retry.lastResort);
      if (attempt) return attempt;
    }
    const statuses = new Map<C, PairStatus>();
    this.firstHold = undefined;
    for (const channel of this.untried) {
      if (!this.host.hasUsableKey(channel)) continue;
      const status = this.host.pairStatus(channel.id, this.model);
      if (status.hold) this.passOver(status.hold);
      else statuses.set(channel, status);
    }
    const [first] = orderByHealth([...statuses.keys()], (channel) => statuses.get(channel) as PairStatus);
    if (first === undefined) return undefined;
    const ready = (statuses.get(first) as PairStatus).ready;
    if (!ready && this.triedReady) return undefined;
    this.untried.splice(this.untried.indexOf(first), 1);
    if (ready) this.triedReady = true;
    return this.start(first, !ready) ?? this.next();
  }

  held(): PairHold | undefined {
    return this.attempted ? undefined : this.firstHold;
  }

  private passOver(hold: PairHold): void {
    if (!this.firstHold || hold.untilMs < this.firstHold.untilMs) this.firstHold = hold;
  }

  /** After a refused key: the same channel once more, with its next key. */
  retryWithNextKey(channel: C, lastResort: boolean): void {
    if (this.host.hasUsableKey(channel)) this.retry = { channel, lastResort };
  }

  private start(channel: C, lastResort: boolean): PairAttempt<C> | undefined {
    const key = this.host.nextKey(channel);
    if (key === undefined) return undefined;
    this.attempted = true;
    const token = this.host.claimTrial(channel.id, this.model);
    return new RouteAttempt({ route: this, host: this.host, channel, key, token, lastResort });
  }
}

class RouteAttempt<C extends HealthChannel> implements PairAttempt<C> {
  readonly channel: C;
  readonly model: string;
  readonly key: string;
  readonly trial: boolean;
  private ended = false;

  constructor(
    private readonly context: {
      route: HealthRoute<C>;
      host: RouteHost;
      channel: C;
      key: string;
      token: number | undefined;
      lastResort: boolean;
    },
  ) {
    this.channel = context.channel;
    this.model = context.route.model;
    this.key = context.key;
    this.trial = context.token !== undefined;
  }

  succeeded(): void {
    if (this.end()) this.context.host.recordSuccess(this.channel, this.model);
  }

  failed(failure: PairFailure = {}): void {
    if (this.end()) this.context.host.recordFailure(this.channel, this.model, failure);
  }

  refused(): void {
    if (!this.end()) return;
    this.context.host.refuseKey(this.channel, this.key);
    this.context.route.retryWithNextKey(this.channel, this.context.lastResort);
  }

  abandoned(): void {
    this.end();
  }

  /** True the first time: frees the trial slot; the caller then records the outcome. */
  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    const { token } = this.context;
    if (token !== undefined) this.context.host.releaseTrial(this.channel.id, this.model, token);
    return true;
  }
}
