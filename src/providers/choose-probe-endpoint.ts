import type { EndpointType } from '../routing/endpoint-type.js';
import type { ChannelConfig } from '../store/channels-repository.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

const conversational: ReadonlySet<string> = new Set(['openai', 'openai-response', 'anthropic', 'gemini']);

/** Probes for channels that serve no conversation, by the endpoint type they declare, most telling first. */
const probesByType: readonly [EndpointType, readonly UpstreamEndpoint[]][] = [
  ['embeddings', ['openai-embeddings', 'gemini-embed-content']],
  ['jina-rerank', ['jina-rerank']],
  ['audio-speech', ['openai-audio-speech']],
  ['audio-transcription', ['openai-audio-transcriptions']],
  ['realtime', ['openai-realtime']],
];

/**
 * Where the channel test sends its request: the upstream's own protocol for the model, unless the
 * channel's `endpoints` declare no conversation at all (an embedding or rerank deployment, whose
 * models would refuse a chat request). Undefined when the upstream serves nothing for the model.
 */
export function chooseProbeEndpoint(options: {
  provider: ProviderDescriptor;
  declared: readonly string[] | null;
  /** The upstream's name of the model probed. */
  model: string;
  config: ChannelConfig;
}): UpstreamEndpoint | undefined {
  const served = options.provider.upstreamEndpoints(options.model, options.config);
  const { declared } = options;
  if (declared === null || declared.some((type) => conversational.has(type))) return served[0];
  for (const [type, endpoints] of probesByType) {
    if (!declared.includes(type)) continue;
    const probe = endpoints.find((endpoint) => served.includes(endpoint));
    if (probe) return probe;
  }
  return served[0];
}
