import type { HealthUpdate } from './health-update.js';

export type HealthUpdateListener = (update: HealthUpdate) => void;

/**
 * How instances share what they learn about channel health (DESIGN section 8). `publish` reaches
 * every other instance; an instance never hears its own updates back.
 */
export interface HealthSync {
  publish(update: HealthUpdate): Promise<void>;
  subscribe(listener: HealthUpdateListener): void;
  close(): Promise<void>;
}

/** A single instance: there is no one to tell, and this process already holds every update. */
export class LocalHealthSync implements HealthSync {
  async publish(): Promise<void> {}

  subscribe(): void {}

  async close(): Promise<void> {}
}
