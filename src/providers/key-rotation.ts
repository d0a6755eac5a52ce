import type { ChannelRecord } from '../store/channels-repository.js';

export interface KeyRotationOptions {
  /** False for a key that must not be used now (refused by the upstream and set aside). */
  isUsable?: (channelId: number, key: string) => boolean;
}

type KeyedChannel = Pick<ChannelRecord, 'id' | 'keys'>;

/**
 * Round robin over a channel's usable keys. Process-local on purpose: each instance spreads its own
 * load evenly, and sharing a counter across instances would cost a round trip per request.
 */
export class KeyRotation {
  private readonly positions = new Map<number, number>();

  constructor(private readonly options: KeyRotationOptions = {}) {}

  /** The channel's next usable key, or undefined when it has none. */
  next(channel: KeyedChannel): string | undefined {
    const { keys } = channel;
    const start = (this.positions.get(channel.id) ?? 0) % Math.max(1, keys.length);
    for (let offset = 0; offset < keys.length; offset += 1) {
      const position = (start + offset) % keys.length;
      const key = keys[position] as string;
      if (!this.isUsable(channel.id, key)) continue;
      this.positions.set(channel.id, (position + 1) % keys.length);
      return key;
    }
    return undefined;
  }

  /** Whether `next` would find a key, without moving the rotation. */
  hasUsable(channel: KeyedChannel): boolean {
    return channel.keys.some((key) => this.isUsable(channel.id, key));
  }

  /** Drops a deleted channel's position. */
  forget(channelId: number): void {
    this.positions.delete(channelId);
  }

  private isUsable(channelId: number, key: string): boolean {
    return this.options.isUsable?.(channelId, key) ?? true;
  }
}

/** The rotation over every key, refused or not, that probes of this process share. */
export const sharedKeyRotation = new KeyRotation();
