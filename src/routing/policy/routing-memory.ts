import type { Logger } from '../../observability/logger.js';
import type { StickyStore } from './affinity/redis-sticky-store.js';
import { StickyRoutes } from './affinity/sticky-routes.js';
import type { HealthSync } from '../health-sync.js';
import type { HealthUpdate } from '../health-update.js';
import { LatencyBoard } from './latency/latency-board.js';

/** What routing policy learns from traffic and shares with every worker and instance. */
export interface RoutingMemory {
  /** First-byte latency per (channel, model) (admin-api 11.5). */
  latency: LatencyBoard;
  /** Prompt-cache affinity's sticky choices (11.4). */
  sticky: StickyRoutes;
  close(): Promise<void>;
}

/**
 * The routing memory of this process, shared the way channel health is (DESIGN section 8): its
 * updates travel on the health sync (through the primary between workers, on Redis pub/sub
 * between instances), and sticky choices are also kept in Redis with their time to live, for an
 * instance that did not hear of them. Like health, it is soft state: a publish that fails is
 * logged once per outage and traffic relearns what was lost.
 */
export function openRoutingMemory(options: {
  sync: HealthSync;
  stickyStore?: (StickyStore & { close(): Promise<void> }) | undefined;
  logger: Logger;
}): RoutingMemory {
  const { sync, logger } = options;
  let failing = false;
  const onError = (error: unknown) => {
    if (!failing) logger.warn({ err: error }, 'could not share a routing choice');
    failing = true;
  };
  const publish = (update: HealthUpdate) => {
    sync.publish(update).then(() => {
      failing = false;
    }, onError);
  };
  const memory: RoutingMemory = {
    latency: new LatencyBoard({ publish }),
    sticky: new StickyRoutes({ publish, store: options.stickyStore, onError }),
    close: async () => options.stickyStore?.close(),
  };
  sync.subscribe((update) => {
    if (update.kind === 'latency') memory.latency.apply(update);
    else if (update.kind === 'sticky') memory.sticky.apply(update);
  });
  return memory;
}
