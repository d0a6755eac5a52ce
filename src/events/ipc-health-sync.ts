import type { HealthSync, HealthUpdateListener } from '../routing/health-sync.js';
import type { HealthUpdate } from '../routing/health-update.js';
import type { IpcLink } from '../cluster/ipc-link.js';

/**
 * Channel health shared by the workers of one machine without Redis: each change goes to the
 * primary, which passes it on to every other worker. Like the Redis one, it is soft state that
 * traffic relearns, so nothing waits for it and a notice lost with a dying worker is no harm.
 */
export class IpcHealthSync implements HealthSync {
  private readonly listeners: HealthUpdateListener[] = [];

  constructor(private readonly link: IpcLink) {
    link.onNotice('health', ({ update }) => {
      for (const listener of this.listeners) listener(update);
    });
  }

  async publish(update: HealthUpdate): Promise<void> {
    this.link.notify('health', { update });
  }

  subscribe(listener: HealthUpdateListener): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
  }
}
