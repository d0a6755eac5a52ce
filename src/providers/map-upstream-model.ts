import type { ChannelRecord } from '../store/channels-repository.js';

/** The upstream's own ID for a public model ID, through the channel's `model_mapping` (admin-api section 2). */
export function mapUpstreamModel(channel: Pick<ChannelRecord, 'modelMapping'>, publicModel: string): string {
  const mapped = Object.hasOwn(channel.modelMapping, publicModel)
    ? channel.modelMapping[publicModel]
    : undefined;
  return mapped || publicModel;
}
