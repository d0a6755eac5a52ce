/**
 * Tells caches that stored data changed. The management API publishes after each write; caches
 * subscribe and drop what they hold. One process uses the local feed; several instances share
 * a Redis-backed feed with the same interface.
 */
export type ChangeTopic = 'users' | 'keys' | 'channels' | 'prices' | 'groups' | 'settings';

export type ChangeListener = (topic: ChangeTopic) => void;

export interface ChangeFeed {
  publish(topic: ChangeTopic): Promise<void>;
  subscribe(listener: ChangeListener): void;
  close(): Promise<void>;
}

export class LocalChangeFeed implements ChangeFeed {
  private readonly listeners: ChangeListener[] = [];

  async publish(topic: ChangeTopic): Promise<void> {
    this.deliver(topic);
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener for a change, whether it was made here or announced by another instance. */
  deliver(topic: ChangeTopic): void {
    for (const listener of this.listeners) listener(topic);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
  }
}
