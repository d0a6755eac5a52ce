import pino from 'pino';
import { LocalChangeFeed } from '../../src/events/change-feed.js';
import type { Logger } from '../../src/observability/logger.js';
import {
  ChannelHealthService,
  type ChannelHealthServiceOptions,
  type HealthSettings,
} from '../../src/routing/channel-health-service.js';
import type { HealthSync, HealthUpdateListener } from '../../src/routing/health-sync.js';
import type { HealthUpdate } from '../../src/routing/health-update.js';
import type { ChannelRecord } from '../../src/store/channels-repository.js';

export interface CapturedLogger {
  logger: Logger;
  entries: { level: number; msg: string; [field: string]: unknown }[];
}

/** A logger that keeps its JSON lines for assertions. */
export function captureLogger(): CapturedLogger {
  const entries: CapturedLogger['entries'] = [];
  const logger = pino(
    { level: 'debug', base: undefined },
    { write: (line: string) => void entries.push(JSON.parse(line)) },
  );
  return { logger, entries };
}

/** A clock the test moves by hand (Unix milliseconds). */
export class FakeClock {
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export const defaultHealthSettings: HealthSettings = {
  model_cooldown_s: 5,
  model_cooldown_max_s: 300,
  channel_failure_threshold: 3,
  channel_probe_interval_s: 0.02,
  webhook_url: null,
};

export function channelRecord(changes: Partial<ChannelRecord> = {}): ChannelRecord {
  return {
    id: 1,
    name: 'c',
    type: 'openai',
    baseUrl: null,
    keys: ['key-one'],
    models: ['m'],
    modelMapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    config: {},
    status: 'enabled',
    createdAt: 0,
    ...changes,
  };
}

/** A service over no database (nothing it does here needs one), with a fake clock and settings. */
export function healthWithoutStore(
  options: Partial<ChannelHealthServiceOptions> & { clock?: FakeClock; settings?: () => HealthSettings } = {},
) {
  const clock = options.clock ?? new FakeClock();
  const captured = captureLogger();
  let settings: HealthSettings = { ...defaultHealthSettings };
  const health = new ChannelHealthService({
    repository: {
      find: async () => undefined,
      all: async () => [],
      transitionStatus: async () => undefined,
    },
    changes: new LocalChangeFeed(),
    settings: () => settings,
    probe: async () => false,
    logger: captured.logger,
    now: clock.now,
    ...options,
  });
  return {
    health,
    clock,
    ...captured,
    setSettings(changes: Partial<HealthSettings>) {
      settings = { ...settings, ...changes };
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until the check holds or the time is up; returns whether it held. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 2000,
): Promise<boolean> {
  for (let waited = 0; waited <= timeoutMs; waited += 10) {
    if (await check()) return true;
    await sleep(10);
  }
  return false;
}

/** Two instances in one process, wired like pub/sub: each hears the other, never itself. */
export function linkedSyncs(): [HealthSync, HealthSync] {
  const listeners: [HealthUpdateListener[], HealthUpdateListener[]] = [[], []];
  const make = (self: 0 | 1): HealthSync => ({
    async publish(update) {
      const copy = JSON.parse(JSON.stringify(update)) as HealthUpdate;
      for (const listener of listeners[self === 0 ? 1 : 0]) listener(copy);
    },
    subscribe: (listener) => void listeners[self].push(listener),
    async close() {},
  });
  return [make(0), make(1)];
}
