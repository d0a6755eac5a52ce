import type { ChannelRecord } from '../store/channels-repository.js';

/**
 * Round robin over a channel's keys. Process-local on purpose: each instance spreads its own load
 * evenly, and sharing a counter across instances would cost a round trip per request.
 */
export class KeyRotation {
  private readonly positions = new Map<number, number>();

  /** The channel's next key, or undefined when it has none. */
  next(channel: Pick<ChannelRecord, 'id' | 'keys'>): string | undefined {
    const { keys } = channel;
    if (keys.length === 0) return undefined;
    const position = (this.positions.get(channel.id) ?? 0) % keys.length;
    this.positions.set(channel.id, (position + 1) % keys.length);
    return keys[position];
  }

  /** Drops a deleted channel's position. */
  forget(channelId: number): void {
    this.positions.delete(channelId);
  }
}

/** The rotation every request of this process shares. */
export const sharedKeyRotation = new KeyRotation();
