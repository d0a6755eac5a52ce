import type { ChannelRecord } from '../store/channels-repository.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

export interface UpstreamTarget {
  url: string;
  headers: Record<string, string>;
}

/** URL and headers for one call to a channel's upstream; undefined when it does not serve `endpoint`. */
export function resolveUpstreamTarget(request: {
  provider: ProviderDescriptor;
  channel: Pick<ChannelRecord, 'baseUrl'>;
  endpoint: UpstreamEndpoint;
  /** Already mapped through the channel's model mapping. */
  model: string;
  stream: boolean;
  key: string;
  extraHeaders?: Readonly<Record<string, string>>;
}): UpstreamTarget | undefined {
  const { provider } = request;
  const url = provider.buildUrl({
    baseUrl: request.channel.baseUrl,
    endpoint: request.endpoint,
    model: request.model,
    stream: request.stream,
  });
  if (url === undefined) return undefined;
  return { url, headers: provider.buildHeaders({ key: request.key, extraHeaders: request.extraHeaders }) };
}
