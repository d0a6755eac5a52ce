/**
 * Tells caches that stored data changed. The management API publishes after each write; caches
 * subscribe and drop what they hold. One process uses the local feed; several instances share
 * a Redis-backed feed with the same interface; the workers of one machine, the IPC feed through
 * their primary (ipc-change-feed.ts).
 */
/** What a change notice may be about; `models` covers model metadata and virtual models. */
export const CHANGE_TOPICS = [
  'users',
  'keys',
  'channels',
  'prices',
  'groups',
  'settings',
  'models',
  'guardrails',
] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/** Listeners may reload asynchronously; `publish` resolves once every local listener has finished. */
export type ChangeListener = (topic: ChangeTopic) => void | Promise<void>;

export interface ChangeFeed {
  publish(topic: ChangeTopic): Promise<void>;
  subscribe(listener: ChangeListener): void;
  close(): Promise<void>;
}

export class LocalChangeFeed implements ChangeFeed {
  private readonly listeners: ChangeListener[] = [];

  async publish(topic: ChangeTopic): Promise<void> {
    await this.deliver(topic);
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener for a change, whether it was made here or announced by another instance. */
  async deliver(topic: ChangeTopic): Promise<void> {
    await Promise.all(this.listeners.map((listener) => listener(topic)));
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
  }
}
