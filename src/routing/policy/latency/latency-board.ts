import type { LatencyUpdate } from './latency-update.js';
import { orderByLatency } from './order-by-latency.js';

export { EXPLORATION_SHARE } from './order-by-latency.js';

/**
 * The weight of the newest sample in a pair's moving average. At 0.3 a lasting change shows by
 * 83% after five requests (1 - 0.7^5), while one outlier moves the estimate by under a third.
 */
export const SMOOTHING_FACTOR = 0.3;

/**
 * An estimate without a new sample (this instance's or a shared one) for this long is forgotten:
 * the pair is unmeasured again, so it is measured afresh rather than judged by what it did before
 * an incident ended. Exploration refreshes the slower pairs of a busy model every few seconds, so
 * only pairs that lost their traffic lapse; at a request a minute a slow pair costs one in five.
 */
export const ESTIMATE_LIFETIME_MS = 5 * 60_000;

/**
 * An unmeasured pair leads one request, then waits this long for that request's first byte before
 * another is sent to measure it. Treating it as best for every request until the first byte
 * arrives would send a busy model's whole traffic to an untried channel for that time; this way
 * it costs one request. Ten seconds outlasts most first bytes; a trial that never reports (the
 * attempt failed, or never started) only delays the next one.
 */
export const MEASUREMENT_TRIAL_MS = 10_000;

/** Each pair shares its estimate at most once a second: a busy pair would otherwise publish per request. */
export const PUBLISH_INTERVAL_MS = 1000;

/** Pairs held at most (about a megabyte); past it, the one updated longest ago is dropped. */
export const MAX_PAIRS = 10_000;

/** Sorts first: not measured, so the next request measures it. */
const UNMEASURED = Number.NEGATIVE_INFINITY;
/** Sorts last: a trial request is out to measure it. */
const MEASURING = Number.POSITIVE_INFINITY;
/** The time of what has not happened yet, so any age computed from it is infinite. */
const NEVER = Number.NEGATIVE_INFINITY;

interface PairLatency {
  channelId: number;
  model: string;
  /** Smoothed first-byte milliseconds; meaningful while `at` is within `ESTIMATE_LIFETIME_MS`. */
  ms: number;
  /** Unix milliseconds of the newest sample behind `ms`; -Infinity before the first. */
  at: number;
  publishedAt: number;
  /** When the pair, unmeasured, was last put first to be measured. */
  trialAt: number;
}

export interface LatencyBoardOptions {
  now?: () => number;
  random?: () => number;
  /** Tells the other instances a pair's new estimate (throttled per pair). */
  publish?: (update: LatencyUpdate) => void;
}

/**
 * Recent first-byte latency per (channel, public model) pair, learned from real traffic and shared
 * between instances, and the latency-aware order built on it (admin-api 11.5, and 11.2's
 * `strategy: latency`).
 */
export class LatencyBoard {
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly publish: ((update: LatencyUpdate) => void) | undefined;
  private readonly byModel = new Map<string, Map<number, PairLatency>>();
  /** Every pair, least recently updated first (each update re-inserts it): the eviction order. */
  private readonly byRecency = new Set<PairLatency>();
  /** Reused sort keys, so ordering allocates only its result. */
  private keys = new Float64Array(16);

  constructor(options: LatencyBoardOptions = {}) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.publish = options.publish;
  }

  /** Takes one request's time to first byte into the pair's moving average. */
  record(channelId: number, model: string, firstByteMs: number): void {
    if (!Number.isFinite(firstByteMs) || firstByteMs < 0) return;
    const now = this.now();
    const pair = this.absorb({ channelId, model, ms: firstByteMs, at: now });
    // Throttled, not debounced: the value held back goes out with the first record after the
    // interval, and a pair that stops getting traffic has nothing new to tell.
    if (!this.publish || now - pair.publishedAt < PUBLISH_INTERVAL_MS) return;
    pair.publishedAt = now;
    this.publish({ kind: 'latency', channelId, model, ms: pair.ms, at: now });
  }

  /**
   * Blends another instance's estimate into this one's as one sample: the sender's traffic counts,
   * but cannot override what this instance measures itself. An update no newer than this
   * instance's latest sample of the pair adds nothing and is ignored, as is one already past the
   * estimate lifetime; an instance that has not measured the pair takes the update whole.
   */
  apply(update: LatencyUpdate): void {
    const known = this.byModel.get(update.model)?.get(update.channelId);
    if (known && known.at >= update.at) return;
    if (this.now() - update.at > ESTIMATE_LIFETIME_MS) return;
    this.absorb(update);
  }

  /** The pair's smoothed first-byte milliseconds; undefined when unmeasured or forgotten. */
  estimate(channelId: number, model: string): number | undefined {
    const pair = this.byModel.get(model)?.get(channelId);
    return pair && isFresh(pair, this.now()) ? pair.ms : undefined;
  }

  /**
   * Channels in the order to try them when `routing_strategy` is `latency`. `candidates` arrive in
   * the section-4 order; the highest-priority tier is reordered fastest first, with an unmeasured
   * pair first (once: see `MEASUREMENT_TRIAL_MS`) and a small share of exploration; lower tiers
   * keep their order.
   */
  order<C extends { id: number; priority: number }>(candidates: readonly C[], model: string): C[] {
    const result = candidates.slice();
    const topPriority = result[0]?.priority;
    let tierEnd = 1;
    while (tierEnd < result.length && (result[tierEnd] as C).priority === topPriority) tierEnd += 1;
    if (tierEnd < 2) return result;
    const now = this.now();
    const pairs = this.byModel.get(model);
    const keys = this.scratchKeys(tierEnd);
    for (let index = 0; index < tierEnd; index += 1) {
      keys[index] = latencyKey(pairs?.get((result[index] as C).id), now);
    }
    orderByLatency({ items: result, keys, count: tierEnd, random: this.random });
    if (keys[0] === UNMEASURED) this.pairFor((result[0] as C).id, model).trialAt = now;
    return result;
  }

  /**
   * A virtual model's targets in the order to try them under `strategy: latency`: lowest latency
   * first, unknown first, the same exploration share. `latencyOf` gives a target's latency (the
   * best estimate among its channels) and must not call back into this board's ordering. No trial
   * is held here: the board cannot tell which of a target's channels will be measured.
   */
  orderTargets<T>(targets: readonly T[], latencyOf: (target: T) => number | undefined): T[] {
    const result = targets.slice();
    if (result.length < 2) return result;
    const keys = this.scratchKeys(result.length);
    for (let index = 0; index < result.length; index += 1) {
      const ms = latencyOf(result[index] as T);
      keys[index] = ms !== undefined && Number.isFinite(ms) ? ms : UNMEASURED;
    }
    orderByLatency({ items: result, keys, count: result.length, random: this.random });
    return result;
  }

  private absorb(sample: { channelId: number; model: string; ms: number; at: number }): PairLatency {
    const pair = this.pairFor(sample.channelId, sample.model);
    pair.ms = isFresh(pair, sample.at) ? pair.ms + SMOOTHING_FACTOR * (sample.ms - pair.ms) : sample.ms;
    pair.at = Math.max(pair.at, sample.at);
    return pair;
  }

  /** The pair's entry, created when missing, and marked as the most recently updated. */
  private pairFor(channelId: number, model: string): PairLatency {
    let pairs = this.byModel.get(model);
    if (!pairs) {
      pairs = new Map();
      this.byModel.set(model, pairs);
    }
    let pair = pairs.get(channelId);
    if (!pair) {
      pair = { channelId, model, ms: 0, at: NEVER, publishedAt: NEVER, trialAt: NEVER };
      pairs.set(channelId, pair);
    }
    this.byRecency.delete(pair);
    this.byRecency.add(pair);
    if (this.byRecency.size > MAX_PAIRS) this.dropOldest();
    return pair;
  }

  private dropOldest(): void {
    const oldest = this.byRecency.values().next().value;
    if (!oldest) return;
    this.byRecency.delete(oldest);
    const pairs = this.byModel.get(oldest.model);
    pairs?.delete(oldest.channelId);
    if (pairs?.size === 0) this.byModel.delete(oldest.model);
  }

  private scratchKeys(count: number): Float64Array {
    if (this.keys.length < count) this.keys = new Float64Array(Math.max(count, this.keys.length * 2));
    return this.keys;
  }
}

function isFresh(pair: PairLatency, nowMs: number): boolean {
  return nowMs - pair.at <= ESTIMATE_LIFETIME_MS;
}

function latencyKey(pair: PairLatency | undefined, nowMs: number): number {
  if (!pair) return UNMEASURED;
  if (isFresh(pair, nowMs)) return pair.ms;
  return nowMs - pair.trialAt < MEASUREMENT_TRIAL_MS ? MEASURING : UNMEASURED;
}
