import type { StickyChoice } from './affinity/sticky-update.js';
import type { LatencyBoard } from './latency/latency-board.js';
import { orderCandidates } from '../order-candidates.js';
import type { RoutableChannel } from '../routing-catalog.js';
import type { VirtualModelRecord } from '../../store/virtual-models-repository.js';
import type { RouteTarget } from './route-target.js';

export interface RouteOrderInput {
  /** In the plan's order: a virtual model's targets (priority order), then the body's `models`. */
  targets: readonly RouteTarget[];
  virtual: VirtualModelRecord | undefined;
  /** The `routing_strategy` setting: how a target's channels of the top priority are ordered. */
  routingStrategy: 'weighted' | 'latency';
  latency: LatencyBoard;
  /** The request's sticky choice (admin-api 11.4), when it has one. */
  sticky: StickyChoice | undefined;
}

/** A target with its channels in the order to try them. */
export type OrderedTarget = RouteTarget & { candidates: readonly RoutableChannel[] };

/**
 * The order a request tries its targets and their channels in: a virtual model of `strategy:
 * latency` leads with its target answering fastest (admin-api 11.2); each target's channels in
 * section 4's order, or fastest first under `routing_strategy: latency` (11.5); and the sticky
 * choice, where there is one among them, first of all (11.4). Health, applied as the request
 * walks this order, passes over a sticky or fast channel that is cooling down.
 */
export function orderRoute(input: RouteOrderInput): OrderedTarget[] {
  const { latency, sticky } = input;
  let targets = input.targets;
  if (input.virtual?.strategy === 'latency') {
    const named = targets.filter((target) => !target.requestFallback);
    const fastest = latency.orderTargets(named, (target) => bestEstimate(latency, target));
    targets = [...fastest, ...targets.filter((target) => target.requestFallback)];
  }
  const ordered = targets.map((target) => {
    const weighted = orderCandidates(target.candidates);
    const candidates = input.routingStrategy === 'latency' ? latency.order(weighted, target.model) : weighted;
    return { ...target, candidates };
  });
  if (!sticky) return ordered;
  const stuck = ordered.findIndex((target) => target.model === sticky.model);
  if (stuck < 0) return ordered;
  const target = ordered[stuck]!;
  const channel = target.candidates.findIndex((candidate) => candidate.id === sticky.channelId);
  const candidates = channel <= 0 ? target.candidates : moveToFront(target.candidates, channel);
  return moveToFront(ordered, stuck, { ...target, candidates });
}

/** A target's latency: the lowest estimate among its channels; undefined when none is measured. */
function bestEstimate(latency: LatencyBoard, target: RouteTarget): number | undefined {
  let best: number | undefined;
  for (const channel of target.candidates) {
    const estimate = latency.estimate(channel.id, target.model);
    if (estimate !== undefined && (best === undefined || estimate < best)) best = estimate;
  }
  return best;
}

function moveToFront<T>(items: readonly T[], index: number, replacement: T = items[index]!): T[] {
  return [replacement, ...items.slice(0, index), ...items.slice(index + 1)];
}
