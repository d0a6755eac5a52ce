import type { Channel } from '../api/types';
import { channelTypeSpec } from './channel-types';

/**
 * The endpoint types a channel serves a public model with (admin-api section 4): its `endpoints`
 * when set, else those its type derives from the upstream model the public one maps to.
 */
export function deriveEndpointTypes(
  channel: Pick<Channel, 'type' | 'endpoints' | 'model_mapping'>,
  model: string,
): readonly string[] {
  if (channel.endpoints !== null) return channel.endpoints;
  const upstream = channel.model_mapping[model] ?? model;
  return channelTypeSpec(channel.type).endpointTypes(upstream);
}
