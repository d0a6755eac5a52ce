import type { EndpointType } from '../routing/endpoint-type.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

const conversational: ReadonlySet<string> = new Set(['openai', 'openai-response', 'anthropic', 'gemini']);

/** Probes for channels that serve no conversation, by the endpoint type they declare, most telling first. */
const probesByType: readonly [EndpointType, readonly UpstreamEndpoint[]][] = [
  ['embeddings', ['openai-embeddings', 'gemini-embed-content']],
  ['jina-rerank', ['jina-rerank']],
];

/**
 * Where the channel test sends its request: the provider's conversational probe, unless the
 * channel's `endpoints` declare no conversation at all (an embedding or rerank deployment, whose
 * models would refuse a chat request).
 */
export function chooseProbeEndpoint(
  provider: ProviderDescriptor,
  declared: readonly string[] | null,
): UpstreamEndpoint {
  if (declared === null || declared.some((type) => conversational.has(type))) return provider.probeEndpoint;
  for (const [type, endpoints] of probesByType) {
    if (!declared.includes(type)) continue;
    const served = endpoints.find((endpoint) => provider.upstreamEndpoints.includes(endpoint));
    if (served) return served;
  }
  return provider.probeEndpoint;
}
