import type { ChangeFeed } from '../events/change-feed.js';
import type { Logger } from '../observability/logger.js';
import { KeyRotation } from '../providers/key-rotation.js';
import { channelStatusEvent } from '../events/webhooks/channel-events.js';
import type { ChannelRecord, ChannelsRepository, ChannelStatus } from '../store/channels-repository.js';
import { HealthRoute, type PairStatus, type RouteHost } from './candidate-route.js';
import type {
  ChannelHealth,
  ChannelHealthReport,
  HealthChannel,
  PairFailure,
  PairHold,
} from './channel-health.js';
import { cooldownSeconds } from './cooldown-seconds.js';
import { HealthBoard, type PairRecord } from './health-board.js';
import { LocalHealthSync, type HealthSync } from './health-sync.js';
import type { HealthUpdate } from './health-update.js';
import { keyFingerprint } from './key-fingerprint.js';
import { orderByHealth } from './order-by-health.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { ProbeLoops } from './probe-loops.js';

/** The live settings health reads, each on every use. */
export interface HealthSettings {
  model_cooldown_s: number;
  model_cooldown_max_s: number;
  channel_failure_threshold: number;
  channel_probe_interval_s: number;
  /** Set: status changes by health are events (admin-api section 10.1). */
  webhook_url: string | null;
}

export interface ChannelHealthServiceOptions {
  repository: Pick<ChannelsRepository, 'find' | 'all' | 'transitionStatus'>;
  changes: ChangeFeed;
  /** Read on every failure and before every probe, so a changed setting applies at once. */
  settings: () => HealthSettings;
  /** A one-token request to the channel, with `key` when given; true when the upstream answered. */
  probe: (channel: ChannelRecord, options: { key?: string | undefined }) => Promise<boolean>;
  logger: Logger;
  /** Shares state changes with other instances; in-process only by default. */
  sync?: HealthSync;
  /** Unix milliseconds. */
  now?: () => number;
  /** A trial that reports no outcome for this long frees its slot: a lost outcome cannot park a pair. */
  trialLeaseMs?: number;
}

const HEALTHY: PairStatus = { state: 'healthy', ready: true, availableAtMs: 0, failures: 0, untilMs: 0 };
/** A refusal learned from another instance lapses after this many probe intervals without renewal. */
const LEARNED_REFUSAL_INTERVALS = 3;

/**
 * Health per (channel, model) and per key (DESIGN section 6, admin-api section 7).
 *
 * - Each pair is a circuit breaker: a failure cools it down (doubling per consecutive failure, at
 *   least the upstream's `Retry-After`); afterwards one trial request may go through; a success
 *   closes it. One sick model never takes the channel's other models out.
 * - A key refused with 401/403 is set aside and probed until it works again.
 * - The channel is set `auto_disabled` only when it is broken as a whole: every key refused, or every
 *   model failing `channel_failure_threshold` times in a row. It is then probed until it answers.
 * - State changes reach other instances through `sync`; the trial slot stays per instance.
 */
export class ChannelHealthService implements ChannelHealth, RouteHost {
  readonly keys: KeyRotation;
  private readonly board = new HealthBoard();
  private readonly trials = new Map<string, { token: number; sinceMs: number }>();
  /** Last status seen per channel, to notice an admin enabling a channel again. */
  private readonly statuses = new Map<number, ChannelStatus>();
  private readonly disabling = new Set<number>();
  private readonly probes: ProbeLoops;
  private readonly sync: HealthSync;
  private readonly now: () => number;
  private readonly trialLeaseMs: number;
  private nextToken = 1;
  private lastStamp = 0;
  private publishFailing = false;
  private closed = false;

  constructor(private readonly options: ChannelHealthServiceOptions) {
    this.sync = options.sync ?? new LocalHealthSync();
    this.now = options.now ?? Date.now;
    this.trialLeaseMs = options.trialLeaseMs ?? 15 * 60_000;
    this.keys = new KeyRotation({ isUsable: (channelId, key) => !this.isKeyRefused(channelId, key) });
    this.probes = new ProbeLoops({ intervalMs: () => this.probeIntervalMs(), logger: options.logger });
    this.sync.subscribe((update) => this.board.apply(update));
    options.changes.subscribe((topic) => {
      if (topic !== 'channels' || this.closed) return;
      return this.reconcile().catch((error: unknown) =>
        options.logger.warn({ err: error }, 'could not refresh channel health after a channel change'),
      );
    });
  }

  order<C extends HealthChannel>(candidates: readonly C[], model: string): C[] {
    return orderByHealth(candidates, (channel) => this.pairStatus(channel.id, model));
  }

  held(candidates: readonly HealthChannel[], model: string): PairHold | undefined {
    const now = this.now();
    if (!this.board.mayHold(now)) return undefined;
    let first: PairHold | undefined;
    for (const channel of candidates) {
      if (!this.keys.hasUsable(channel)) continue;
      const hold = activeHold(this.board.pair(channel.id, model), now);
      if (!hold) return undefined;
      if (!first || hold.untilMs < first.untilMs) first = hold;
    }
    return first;
  }

  route<C extends HealthChannel>(candidates: readonly C[], model: string): HealthRoute<C> {
    return new HealthRoute(this, candidates, model);
  }

  nextKey(channel: HealthChannel): string | undefined {
    return this.keys.next(channel);
  }

  hasUsableKey(channel: HealthChannel): boolean {
    return this.keys.hasUsable(channel);
  }

  report(channel: HealthChannel): ChannelHealthReport {
    return {
      models: channel.models.map((model) => {
        const status = this.pairStatus(channel.id, model);
        const until = status.state === 'healthy' ? null : Math.ceil(status.untilMs / 1000);
        return { model, state: status.state, failures: status.failures, until };
      }),
      keys: channel.keys.map((key, index) => ({
        index,
        state: this.isKeyRefused(channel.id, key) ? 'refused' : 'active',
      })),
    };
  }

  watch(channels: readonly ChannelRecord[]): void {
    for (const channel of channels) {
      this.statuses.set(channel.id, channel.status);
      if (channel.status === 'auto_disabled') this.probeUntilEnabled(channel.id);
    }
  }

  close(): void {
    this.closed = true;
    this.probes.close();
    Promise.resolve()
      .then(() => this.sync.close())
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'could not close health sync'));
  }

  pairStatus(channelId: number, model: string): PairStatus {
    const record = this.board.pair(channelId, model);
    if (!record || record.failures === 0) return HEALTHY;
    const { failures, untilMs } = record;
    const now = this.now();
    const hold = activeHold(record, now);
    if (hold) return { state: 'cooling_down', ready: false, availableAtMs: untilMs, failures, untilMs, hold };
    if (now < untilMs)
      return { state: 'cooling_down', ready: false, availableAtMs: untilMs, failures, untilMs };
    const trial = this.trials.get(pairId(channelId, model));
    const trialRunning = trial !== undefined && now - trial.sinceMs < this.trialLeaseMs;
    return { state: 'probing', ready: !trialRunning, availableAtMs: untilMs, failures, untilMs };
  }

  claimTrial(channelId: number, model: string): number | undefined {
    const status = this.pairStatus(channelId, model);
    if (status.state !== 'probing' || !status.ready) return undefined;
    const token = this.nextToken++;
    this.trials.set(pairId(channelId, model), { token, sinceMs: this.now() });
    return token;
  }

  releaseTrial(channelId: number, model: string, token: number): void {
    const id = pairId(channelId, model);
    if (this.trials.get(id)?.token === token) this.trials.delete(id);
  }

  recordSuccess(channel: HealthChannel, model: string): void {
    const record = this.board.pair(channel.id, model);
    // The common case changes nothing and shares nothing.
    if (!record || record.failures === 0) return;
    this.setPair(channel.id, model, 0, 0);
    this.options.logger.info({ channelId: channel.id, model }, 'model of channel healthy again');
  }

  recordFailure(channel: HealthChannel, model: string, failure: PairFailure): void {
    const settings = this.options.settings();
    const now = this.now();
    const held = this.board.pair(channel.id, model);
    const failures = (held?.failures ?? 0) + 1;
    const retryAfterSeconds = parseRetryAfter(failure.retryAfter, now);
    const seconds = cooldownSeconds({
      failures,
      baseSeconds: settings.model_cooldown_s,
      maxSeconds: settings.model_cooldown_max_s,
      retryAfterSeconds,
    });
    // A failure never shortens a cooldown already decided (a long Retry-After stands).
    const untilMs = Math.max(held?.untilMs ?? 0, now + seconds * 1000);
    const hold =
      failure.rateLimited && retryAfterSeconds !== undefined && retryAfterSeconds > 0
        ? {
            untilMs: Math.max(activeHold(held, now)?.untilMs ?? 0, now + retryAfterSeconds * 1000),
            message: failure.rateLimited.message,
          }
        : activeHold(held, now);
    this.setPair(channel.id, model, failures, untilMs, hold);
    this.options.logger.info(
      { channelId: channel.id, model, failures, cooldownSeconds: seconds, detail: failure.detail },
      'model of channel cooling down',
    );
    const threshold = settings.channel_failure_threshold;
    const everyModelFailing =
      channel.models.length > 0 &&
      channel.models.every((each) => (this.board.pair(channel.id, each)?.failures ?? 0) >= threshold);
    if (everyModelFailing) this.disable(channel, 'every model failing');
  }

  refuseKey(channel: HealthChannel, key: string): void {
    if (!channel.keys.includes(key)) return;
    const fingerprint = keyFingerprint(key);
    const held = this.board.key(channel.id, fingerprint);
    // Set aside here (also when another instance already did): this instance then probes it too.
    if (!held?.refused || held.learned) {
      this.setKey(channel.id, fingerprint, true);
      this.options.logger.warn(
        { channelId: channel.id, key: fingerprint },
        'upstream refused a channel key; key set aside',
      );
    }
    this.probes.start(keyProbeId(channel.id, fingerprint), () =>
      this.probeRefusedKey(channel.id, fingerprint),
    );
    if (!this.keys.hasUsable(channel)) this.disable(channel, 'every key refused');
  }

  private isKeyRefused(channelId: number, key: string): boolean {
    // Hash only for channels that have a refused key: the common path costs one map lookup.
    return this.board.hasRefusedKeys(channelId) && this.isFingerprintRefused(channelId, keyFingerprint(key));
  }

  private isFingerprintRefused(channelId: number, fingerprint: string): boolean {
    const record = this.board.key(channelId, fingerprint);
    if (!record?.refused) return false;
    if (!record.learned) return true;
    return this.now() - record.at < LEARNED_REFUSAL_INTERVALS * this.probeIntervalMs();
  }

  private setPair(
    channelId: number,
    model: string,
    failures: number,
    untilMs: number,
    hold?: PairHold | undefined,
  ): void {
    const at = this.stamp(this.board.pair(channelId, model)?.at);
    this.board.setPair(channelId, model, { failures, untilMs, hold, at });
    this.publish({ kind: 'pair', channelId, model, failures, untilMs, ...(hold && { hold }), at });
  }

  private setKey(channelId: number, fingerprint: string, refused: boolean): void {
    const at = this.stamp(this.board.key(channelId, fingerprint)?.at);
    this.board.setKey(channelId, fingerprint, { refused, at, learned: false });
    this.publish({ kind: 'key', channelId, key: fingerprint, refused, at });
  }

  /**
   * When a change was decided: the clock, but always after this instance's previous change and
   * after the state it replaces (another instance's clock may run ahead), so that every instance
   * ranks the change above what it supersedes.
   */
  private stamp(replacedAt = 0): number {
    this.lastStamp = Math.max(this.now(), this.lastStamp + 1, replacedAt + 1);
    return this.lastStamp;
  }

  /** Shares a change in the background; a failure is logged once per outage, never thrown. */
  private publish(update: HealthUpdate): void {
    if (this.closed) return;
    let sent: Promise<void>;
    try {
      sent = this.sync.publish(update);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      () => {
        this.publishFailing = false;
      },
      (error: unknown) => {
        if (!this.publishFailing)
          this.options.logger.warn({ err: error }, 'could not share a channel health change');
        this.publishFailing = true;
      },
    );
  }

  /** Sets the channel `auto_disabled` (from `enabled` only) and probes it until it answers. */
  private disable(channel: HealthChannel, reason: string): void {
    if (this.closed || this.disabling.has(channel.id)) return;
    this.disabling.add(channel.id);
    this.transition(channel.id, 'enabled', 'auto_disabled', reason)
      .then((updated) => {
        if (updated) this.probeUntilEnabled(channel.id);
      })
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, channelId: channel.id }, 'could not auto-disable channel'),
      )
      .finally(() => this.disabling.delete(channel.id));
  }

  private probeUntilEnabled(channelId: number): void {
    this.probes.start(channelProbeId(channelId), () => this.probeDisabledChannel(channelId));
  }

  private async probeDisabledChannel(channelId: number): Promise<'again' | 'done'> {
    const channel = await this.options.repository.find(channelId);
    // Deleted, or an admin changed its status meanwhile: stop probing.
    if (!channel || channel.status !== 'auto_disabled') return 'done';
    const answered = await this.options.probe(channel, { key: this.keys.next(channel) }).catch(() => false);
    if (!answered) return 'again';
    // Fresh state first, so the channel's first requests after it returns are not held back.
    this.reset(channel);
    await this.transition(channelId, 'auto_disabled', 'enabled', 'probe answered');
    return 'done';
  }

  private async probeRefusedKey(channelId: number, fingerprint: string): Promise<'again' | 'done'> {
    if (!this.board.key(channelId, fingerprint)?.refused) return 'done';
    const channel = await this.options.repository.find(channelId);
    const key = channel?.keys.find((each) => keyFingerprint(each) === fingerprint);
    // Gone, or the channel is not `enabled`: the channel probe, or an admin enabling it, restores keys.
    if (!channel || key === undefined || channel.status !== 'enabled') return 'done';
    if (await this.options.probe(channel, { key }).catch(() => false)) {
      this.setKey(channelId, fingerprint, false);
      this.options.logger.info({ channelId, key: fingerprint }, 'channel key works again; restored');
      return 'done';
    }
    // Renewed so that other instances keep it set aside while this one probes.
    this.setKey(channelId, fingerprint, true);
    if (!this.keys.hasUsable(channel)) this.disable(channel, 'every key refused');
    return 'again';
  }

  /** Changes the status only from the expected one, so an admin's own change is never overwritten. */
  private async transition(
    channelId: number,
    from: ChannelStatus,
    to: ChannelStatus,
    reason: string,
  ): Promise<ChannelRecord | undefined> {
    const events = this.options.settings().webhook_url !== null;
    const updated = await this.options.repository.transitionStatus(
      channelId,
      from,
      to,
      events ? (channel) => channelStatusEvent(channel, to, reason) : undefined,
    );
    if (!updated) return undefined;
    this.statuses.set(channelId, to);
    this.options.logger.warn({ channelId, status: to, reason }, 'channel status changed');
    await this.options.changes
      .publish('channels')
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error, channelId }, 'could not announce a channel status change'),
      );
    return updated;
  }

  /** A channel enabled again starts afresh: every model healthy, every key usable. */
  private reset(channel: HealthChannel): void {
    for (const model of this.board.models(channel.id)) {
      if ((this.board.pair(channel.id, model)?.failures ?? 0) > 0) this.setPair(channel.id, model, 0, 0);
    }
    for (const fingerprint of this.board.fingerprints(channel.id)) {
      this.probes.stop(keyProbeId(channel.id, fingerprint));
      if (this.board.key(channel.id, fingerprint)?.refused) this.setKey(channel.id, fingerprint, false);
    }
  }

  /** After a channel change: forget deleted channels, models and keys; reset channels enabled again. */
  private async reconcile(): Promise<void> {
    const channels = await this.options.repository.all();
    const present = new Set<number>();
    for (const channel of channels) {
      present.add(channel.id);
      const before = this.statuses.get(channel.id);
      this.statuses.set(channel.id, channel.status);
      this.board.retain(channel.id, {
        models: new Set(channel.models),
        fingerprints: new Set(channel.keys.map(keyFingerprint)),
      });
      if (channel.status === 'enabled' && before !== undefined && before !== 'enabled') this.reset(channel);
    }
    for (const channelId of this.board.channelIds()) {
      if (present.has(channelId)) continue;
      for (const fingerprint of this.board.fingerprints(channelId))
        this.probes.stop(keyProbeId(channelId, fingerprint));
      this.board.forget(channelId);
      this.keys.forget(channelId);
    }
    for (const channelId of this.statuses.keys())
      if (!present.has(channelId)) this.statuses.delete(channelId);
  }

  private probeIntervalMs(): number {
    return this.options.settings().channel_probe_interval_s * 1000;
  }
}

/** The pair's hold, while it lasts. */
function activeHold(record: PairRecord | undefined, nowMs: number): PairHold | undefined {
  const hold = record?.hold;
  return hold && nowMs < hold.untilMs ? hold : undefined;
}

function pairId(channelId: number, model: string): string {
  return `${channelId}\n${model}`;
}

function keyProbeId(channelId: number, fingerprint: string): string {
  return `key:${channelId}:${fingerprint}`;
}

function channelProbeId(channelId: number): string {
  return `channel:${channelId}`;
}
