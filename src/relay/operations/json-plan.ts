import type { UpstreamEndpoint } from '../../providers/provider-descriptor.js';
import { mapUpstreamModel } from '../../providers/map-upstream-model.js';
import { findProvider } from '../../providers/registry.js';
import { declaredUpstreamEndpoints } from '../../routing/declared-upstream-endpoints.js';
import type { RoutableChannel } from '../../routing/routing-catalog.js';
import type { UpstreamPlan } from '../plan.js';
import type { ReplyTransform } from '../transforms.js';

/** A plan for an operation that never streams: one JSON body up, one JSON reply back. */
export function jsonPlan(options: {
  mode: UpstreamPlan['mode'];
  endpoint: UpstreamEndpoint;
  upstreamModel: string;
  body: Record<string, unknown>;
  reply: ReplyTransform;
}): UpstreamPlan {
  const { reply } = options;
  return {
    mode: options.mode,
    endpoint: options.endpoint,
    upstreamModel: options.upstreamModel,
    body: options.body,
    extraHeaders: {},
    query: '',
    reply: () => reply,
  };
}

/**
 * Whether the channel's upstream serves `endpoint` natively for the public `model`, and is called
 * there (`declaredUpstreamEndpoints`).
 */
export function upstreamServes(channel: RoutableChannel, endpoint: UpstreamEndpoint, model: string): boolean {
  const provider = findProvider(channel.type);
  if (!provider) return false;
  const native = provider.upstreamEndpoints(mapUpstreamModel(channel, model), channel.config);
  return declaredUpstreamEndpoints(channel.endpoints, native).includes(endpoint);
}
