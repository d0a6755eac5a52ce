import type { PairHold } from './channel-health.js';
import type { HealthUpdate } from './health-update.js';

/** A (channel, model) breaker. `failures` 0 is closed; `at` is when this state was decided. */
export interface PairRecord {
  failures: number;
  untilMs: number;
  /** After an upstream 429 with `Retry-After`. */
  hold?: PairHold | undefined;
  at: number;
}

export interface KeyRecord {
  refused: boolean;
  at: number;
  /**
   * Learned from another instance. Whoever set the key aside probes it and renews the refusal
   * after each failed probe; a learned refusal that stops being renewed (that instance is gone)
   * lapses, so the key is tried again here instead of staying refused forever.
   */
  learned: boolean;
}

interface ChannelEntries {
  pairs: Map<string, PairRecord>;
  /** By key fingerprint. */
  keys: Map<string, KeyRecord>;
}

/**
 * The health state this instance knows: its own observations and those other instances shared.
 * Every entry keeps the time its state was decided, and an update older than what is held is
 * ignored, so instances converge whatever order their messages arrive in.
 */
export class HealthBoard {
  private readonly channels = new Map<number, ChannelEntries>();
  /** When the latest hold ever set ends: past it, no pair is held. */
  private holdsEndMs = 0;

  pair(channelId: number, model: string): PairRecord | undefined {
    return this.channels.get(channelId)?.pairs.get(model);
  }

  setPair(channelId: number, model: string, record: PairRecord): void {
    this.entries(channelId).pairs.set(model, record);
    if (record.hold && record.hold.untilMs > this.holdsEndMs) this.holdsEndMs = record.hold.untilMs;
  }

  /** Whether any pair may be held at `nowMs`: false lets the request path skip looking. */
  mayHold(nowMs: number): boolean {
    return nowMs < this.holdsEndMs;
  }

  key(channelId: number, fingerprint: string): KeyRecord | undefined {
    return this.channels.get(channelId)?.keys.get(fingerprint);
  }

  setKey(channelId: number, fingerprint: string, record: KeyRecord): void {
    this.entries(channelId).keys.set(fingerprint, record);
  }

  /** Whether any key of the channel is held refused (a cheap check before hashing keys). */
  hasRefusedKeys(channelId: number): boolean {
    const keys = this.channels.get(channelId)?.keys;
    if (!keys) return false;
    for (const record of keys.values()) if (record.refused) return true;
    return false;
  }

  /** Applies another instance's update unless this instance holds a state decided later. */
  apply(update: HealthUpdate): boolean {
    if (update.kind === 'latency' || update.kind === 'sticky') return false;
    if (update.kind === 'pair') {
      const held = this.pair(update.channelId, update.model);
      if (held && held.at >= update.at) return false;
      this.setPair(update.channelId, update.model, {
        failures: update.failures,
        untilMs: update.untilMs,
        hold: update.hold,
        at: update.at,
      });
      return true;
    }
    const held = this.key(update.channelId, update.key);
    if (held && held.at >= update.at) return false;
    this.setKey(update.channelId, update.key, { refused: update.refused, at: update.at, learned: true });
    return true;
  }

  channelIds(): number[] {
    return [...this.channels.keys()];
  }

  models(channelId: number): string[] {
    return [...(this.channels.get(channelId)?.pairs.keys() ?? [])];
  }

  fingerprints(channelId: number): string[] {
    return [...(this.channels.get(channelId)?.keys.keys() ?? [])];
  }

  /** Drops entries of models and keys the channel no longer has. */
  retain(channelId: number, keep: { models: ReadonlySet<string>; fingerprints: ReadonlySet<string> }): void {
    const entries = this.channels.get(channelId);
    if (!entries) return;
    for (const model of entries.pairs.keys()) if (!keep.models.has(model)) entries.pairs.delete(model);
    for (const key of entries.keys.keys()) if (!keep.fingerprints.has(key)) entries.keys.delete(key);
  }

  forget(channelId: number): void {
    this.channels.delete(channelId);
  }

  private entries(channelId: number): ChannelEntries {
    let entries = this.channels.get(channelId);
    if (!entries) this.channels.set(channelId, (entries = { pairs: new Map(), keys: new Map() }));
    return entries;
  }
}
