import type { KeyRotation } from '../providers/key-rotation.js';
import type { ChannelRecord } from '../store/channels-repository.js';

/** What health needs of a channel; `RoutableChannel` and `ChannelRecord` both qualify. */
export type HealthChannel = Pick<ChannelRecord, 'id' | 'keys' | 'models'>;

/** A (channel, public model) circuit breaker as the management API shows it. */
export type PairState = 'healthy' | 'cooling_down' | 'probing';

/** A failed attempt: timeout, transport error, 429, 5xx, or a 200 whose body is not JSON. */
export interface PairFailure {
  /** The upstream's `Retry-After` header (or seconds): the cooldown lasts at least this long. */
  retryAfter?: string | readonly string[] | number | undefined;
  /** What went wrong, for the log. */
  detail?: string | undefined;
  /**
   * The upstream answered 429 with this message: with a `Retry-After`, the pair is held until
   * then (`PairHold`).
   */
  rateLimited?: { message: string } | undefined;
}

/**
 * A pair the upstream asked, with 429 and `Retry-After`, not to call again before `untilMs`
 * (admin-api section 7): it is not called then, not even as the only candidate, and a request
 * with no other candidate is answered 429 by the gateway with the upstream's `message`.
 */
export interface PairHold {
  /** Unix milliseconds. */
  untilMs: number;
  message: string;
}

/**
 * One upstream attempt on a (channel, model) pair with one key. Report exactly one outcome; later
 * calls are ignored, so `abandoned()` may safely run in a `finally`.
 */
export interface PairAttempt<C extends HealthChannel = HealthChannel> {
  readonly channel: C;
  readonly model: string;
  /** The key to send: the channel's next key that is not set aside. */
  readonly key: string;
  /** This attempt is the pair's one trial after its cooldown (half-open). */
  readonly trial: boolean;
  /** The upstream answered (for streams: the first chunk arrived). Closes the pair's breaker. */
  succeeded(): void;
  /** Timeout, transport error, 429, 5xx, non-JSON 200: the pair cools down. */
  failed(failure?: PairFailure): void;
  /**
   * 401 or 403: the key was refused and is set aside. The next `route.next()` retries this channel
   * with its next usable key when it has one. Says nothing about the pair's health.
   */
  refused(): void;
  /** Ended without an outcome (client gone, gateway error, non-retryable 4xx): a trial slot is freed. */
  abandoned(): void;
}

/** One request's walk over its candidates. */
export interface CandidateRoute<C extends HealthChannel = HealthChannel> {
  /**
   * The next attempt to make, or undefined when there is none left. Pairs that may be tried now
   * come in the candidates' order; pairs cooling down are skipped, unless none could be tried
   * when the walk began, in which case they come soonest available first. Starting an attempt on a
   * cooled-down pair claims its single trial slot.
   */
  next(): PairAttempt<C> | undefined;
  /**
   * Once `next()` gave nothing before any attempt was made because every candidate left is held
   * (`PairHold`): the hold that ends first. Undefined otherwise.
   */
  held(): PairHold | undefined;
}

export interface ChannelHealthReport {
  /** One entry per model of the channel, in its order; `until` in Unix seconds, null when healthy. */
  models: { model: string; state: PairState; failures: number; until: number | null }[];
  /** One entry per key, by index. */
  keys: { index: number; state: 'active' | 'refused' }[];
}

/**
 * Health per (channel, model) and per key (DESIGN section 6, admin-api section 7): what the relay
 * and the management API call.
 */
export interface ChannelHealth {
  /** Round robin over the channel's keys that are not set aside; the relay's key choice. */
  readonly keys: KeyRotation;
  /** The order to try candidates in (see `orderByHealth`); reads state, claims nothing. */
  order<C extends HealthChannel>(candidates: readonly C[], model: string): C[];
  /**
   * The hold that ends first when every candidate is held (`PairHold`), else undefined. Cheap when
   * no pair is held: the relay asks before it reserves anything.
   */
  held(candidates: readonly HealthChannel[], model: string): PairHold | undefined;
  /** Starts one request's walk over its candidates, already sorted by priority and weight. */
  route<C extends HealthChannel>(candidates: readonly C[], model: string): CandidateRoute<C>;
  /** The channel's next key that is not set aside, or undefined when every key is. */
  nextKey(channel: HealthChannel): string | undefined;
  report(channel: HealthChannel): ChannelHealthReport;
  /** Resumes probing channels found `auto_disabled` at start. */
  watch(channels: readonly ChannelRecord[]): void;
  close(): void;
}
