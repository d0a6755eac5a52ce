import type { StickyStore } from './redis-sticky-store.js';
import { sameChoice, type StickyChoice, type StickyUpdate } from './sticky-update.js';

export type { StickyChoice } from './sticky-update.js';

const DEFAULT_MAX_ENTRIES = 100_000;
/** A renewal is shared again once less than this share of the ttl is left of what others hold. */
const SHARE_AGAIN_BELOW = 3 / 4;

export interface StickyRoutesOptions {
  now?: () => number;
  /** Tells the other workers (and instances) of a new or renewed choice. */
  publish?: (update: StickyUpdate) => void;
  /** Where choices outlive this process and reach other instances (Redis); asked on a local miss. */
  store?: StickyStore;
  maxEntries?: number;
  /** Told of a failed publish or store call; the caller's request goes on either way. */
  onError?: (error: unknown) => void;
}

interface StickyEntry {
  choice: StickyChoice;
  /** Until when this process keeps the choice: each request renews it. */
  untilMs: number;
  /** Until when the others hold it, as last published or received. */
  sharedUntilMs: number;
  /** When the choice was last shared: the newest wins. */
  at: number;
}

/**
 * The sticky choices of prompt-cache affinity (admin-api 11.4) this process knows. Renewals of an
 * unchanged choice are shared only once a quarter of the ttl has passed since the last share, so a
 * busy conversation does not publish on every request; the others may therefore drop a choice up
 * to a quarter of the ttl sooner than this process does. Memory is bounded: past `maxEntries`, the
 * least recently used choice goes.
 */
export class StickyRoutes {
  private readonly entries = new Map<string, StickyEntry>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: StickyRoutesOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
  }

  /**
   * The choice for `id`: at once from this process's table, else (with a store) a promise of what
   * the store holds. A store's answer is not kept here; the caller's `remember` of the choice it
   * used does that.
   */
  lookup(id: string): StickyChoice | undefined | Promise<StickyChoice | undefined> {
    const entry = this.entries.get(id);
    if (entry !== undefined) {
      if (entry.untilMs > this.now()) return entry.choice;
      this.entries.delete(id);
    }
    return this.options.store === undefined ? undefined : this.askStore(this.options.store, id);
  }

  /** Sets or renews the choice for `id` for `ttlMs` from now. */
  remember(id: string, choice: StickyChoice, ttlMs: number): void {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) return;
    const now = this.now();
    const untilMs = now + ttlMs;
    const entry = this.entries.get(id);
    const renewal = entry !== undefined && entry.untilMs > now && sameChoice(entry.choice, choice);
    if (renewal && entry.sharedUntilMs - now >= ttlMs * SHARE_AGAIN_BELOW) {
      entry.untilMs = untilMs;
      this.put(id, entry);
      return;
    }
    const kept = renewal ? entry.choice : Object.freeze({ channelId: choice.channelId, model: choice.model });
    this.put(id, { choice: kept, untilMs, sharedUntilMs: untilMs, at: now });
    this.share({ kind: 'sticky', id, channelId: kept.channelId, model: kept.model, untilMs, at: now }, ttlMs);
  }

  /** A choice shared by another worker or instance: kept when newer than what this process holds. */
  apply(update: StickyUpdate): void {
    const now = this.now();
    if (update.untilMs <= now) return;
    const held = this.entries.get(update.id);
    const entry = held !== undefined && held.untilMs > now ? held : undefined;
    if (entry !== undefined && !isNewer(update, entry)) return;
    if (entry !== undefined && sameChoice(entry.choice, update)) {
      this.put(update.id, {
        choice: entry.choice,
        untilMs: Math.max(entry.untilMs, update.untilMs),
        sharedUntilMs: Math.max(entry.sharedUntilMs, update.untilMs),
        at: update.at,
      });
      return;
    }
    const choice = Object.freeze({ channelId: update.channelId, model: update.model });
    this.put(update.id, { choice, untilMs: update.untilMs, sharedUntilMs: update.untilMs, at: update.at });
  }

  /** How many choices are held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  /** Re-inserts, so that the Map's order is least recently used first. */
  private put(id: string, entry: StickyEntry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size <= this.maxEntries) return;
    for (const oldest of this.entries.keys()) {
      this.entries.delete(oldest);
      if (this.entries.size <= this.maxEntries) return;
    }
  }

  private share(update: StickyUpdate, ttlMs: number): void {
    const { publish, store } = this.options;
    try {
      publish?.(update);
    } catch (error) {
      this.options.onError?.(error);
    }
    try {
      store?.set(update.id, { channelId: update.channelId, model: update.model }, ttlMs);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  private async askStore(store: StickyStore, id: string): Promise<StickyChoice | undefined> {
    try {
      return await store.get(id);
    } catch (error) {
      this.options.onError?.(error);
      return undefined;
    }
  }
}

/** Newest `at` wins; a tie goes to the lower channel (then model), so every process settles alike. */
function isNewer(update: StickyUpdate, entry: StickyEntry): boolean {
  if (update.at !== entry.at) return update.at > entry.at;
  if (update.channelId !== entry.choice.channelId) return update.channelId < entry.choice.channelId;
  return update.model < entry.choice.model;
}
