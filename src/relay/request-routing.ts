import type { Settings } from '../config/settings-schema.js';
import { affinityKeyOf, stickyId } from '../routing/policy/affinity/affinity-key.js';
import { sameChoice } from '../routing/policy/affinity/sticky-update.js';
import { orderRoute, type OrderedTarget } from '../routing/policy/route-order.js';
import type { RouteTarget } from '../routing/policy/route-target.js';
import type { RoutingMemory } from '../routing/policy/routing-memory.js';
import type { RoutableChannel } from '../routing/routing-catalog.js';
import type { RelayPlan } from './preflight.js';
import type { StickyResult } from './relay-observer.js';
import type { ClientProtocolName } from '../protocols/protocol-codec.js';

/** How one request is routed, and what routing learns from how it went. */
export interface RequestRouting {
  /** The targets and their channels, in the order to try them. */
  targets: OrderedTarget[];
  /** Hears each answering call's time to first byte, when the request is routed by latency. */
  onFirstByte: ((channel: RoutableChannel, model: string, milliseconds: number) => void) | undefined;
  /** A channel answered the request as `model`: it becomes the sticky choice; how affinity did, if it applied. */
  answered(channel: RoutableChannel, model: string): StickyResult | undefined;
}

/**
 * The routing policy's part in a request (admin-api sections 11.2, 11.4, 11.5): its sticky choice,
 * when it has an affinity key and its model is sticky, looked up; its targets and channels put in
 * order; and, once a channel answered, the choice remembered.
 */
export async function routeRequest(
  memory: RoutingMemory,
  input: {
    /** What the request's affinity key is read from (see `affinityKeyOf`). */
    request: AffinitySource;
    plan: RelayPlan;
    targets: readonly RouteTarget[];
    settings: Readonly<Settings>;
  },
): Promise<RequestRouting> {
  const { plan, settings } = input;
  const { latency, sticky } = memory;
  const affinity = plan.virtual?.sticky === false ? undefined : affinityOf(input.request);
  const stuck = affinity === undefined ? undefined : await sticky.lookup(affinity);
  const measured = settings.routing_strategy === 'latency' || plan.virtual?.strategy === 'latency';
  return {
    targets: orderRoute({
      targets: input.targets,
      virtual: plan.virtual,
      routingStrategy: settings.routing_strategy,
      latency,
      sticky: stuck,
    }),
    onFirstByte: measured ? (channel, model, ms) => latency.record(channel.id, model, ms) : undefined,
    answered(channel, model) {
      if (affinity === undefined) return undefined;
      const choice = { channelId: channel.id, model };
      sticky.remember(affinity, choice, settings.sticky_ttl_s * 1000);
      return !stuck ? 'miss' : sameChoice(stuck, choice) ? 'hit' : 'moved';
    },
  };
}

export interface AffinitySource {
  /** The client protocol of a conversational endpoint; other endpoints have no affinity. */
  protocol: ClientProtocolName | undefined;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  keyId: number;
}

/** The request's affinity key, hashed with its API key's id; undefined without one. */
function affinityOf(source: AffinitySource): string | undefined {
  if (source.protocol === undefined) return undefined;
  const key = affinityKeyOf(source.protocol, source.body, source.headers);
  return key === undefined ? undefined : stickyId(source.keyId, key);
}
