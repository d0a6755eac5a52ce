import type { ChangeFeed } from '../events/change-feed.js';
import type { ChannelRecord, ChannelsRepository } from '../store/channels-repository.js';

export interface ChannelHealthOptions {
  repository: ChannelsRepository;
  changes: ChangeFeed;
  /** Consecutive failures after which a channel is set `auto_disabled`; read on every failure. */
  failureThreshold: () => number;
  /** Seconds between probes of an auto-disabled channel; read before every probe. */
  probeIntervalSeconds: () => number;
  /** Sends a one-token request; true when the upstream answered. */
  probe: (channel: ChannelRecord) => Promise<boolean>;
  onStatusChange?: (channel: ChannelRecord, status: 'auto_disabled' | 'enabled') => void;
}

/**
 * Counts consecutive failures per channel. A channel that keeps failing is set `auto_disabled` and
 * probed in the background until it answers, then enabled again. A success resets the count.
 */
export class ChannelHealth {
  private readonly failures = new Map<number, number>();
  private readonly probing = new Map<number, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: ChannelHealthOptions) {}

  recordSuccess(channelId: number): void {
    if (this.failures.has(channelId)) this.failures.delete(channelId);
  }

  async recordFailure(channel: ChannelRecord): Promise<void> {
    const count = (this.failures.get(channel.id) ?? 0) + 1;
    this.failures.set(channel.id, count);
    if (count < this.options.failureThreshold() || this.probing.has(channel.id) || this.closed) return;
    this.failures.delete(channel.id);
    const disabled = await this.setStatus(channel, 'enabled', 'auto_disabled');
    if (disabled) this.scheduleProbe(disabled);
  }

  /** Resumes probing channels found auto-disabled at start (another process may have disabled them). */
  watch(channels: readonly ChannelRecord[]): void {
    for (const channel of channels) {
      if (channel.status === 'auto_disabled' && !this.probing.has(channel.id)) this.scheduleProbe(channel);
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.probing.values()) clearTimeout(timer);
    this.probing.clear();
  }

  private scheduleProbe(channel: ChannelRecord): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => void this.probeOnce(channel.id),
      this.options.probeIntervalSeconds() * 1000,
    );
    timer.unref();
    this.probing.set(channel.id, timer);
  }

  private async probeOnce(channelId: number): Promise<void> {
    const channel = await this.options.repository.find(channelId).catch(() => undefined);
    // Deleted, or an admin changed its status meanwhile: stop probing.
    if (!channel || channel.status !== 'auto_disabled') {
      this.probing.delete(channelId);
      return;
    }
    const healthy = await this.options.probe(channel).catch(() => false);
    if (healthy && (await this.setStatus(channel, 'auto_disabled', 'enabled'))) {
      this.probing.delete(channelId);
      return;
    }
    this.scheduleProbe(channel);
  }

  /** Changes the status only from the expected one, so an admin's own change is never overwritten. */
  private async setStatus(
    channel: ChannelRecord,
    from: ChannelRecord['status'],
    to: 'auto_disabled' | 'enabled',
  ): Promise<ChannelRecord | undefined> {
    const updated = await this.options.repository.transitionStatus(channel.id, from, to);
    if (!updated) return undefined;
    await this.options.changes.publish('channels');
    this.options.onStatusChange?.(updated, to);
    return updated;
  }
}
