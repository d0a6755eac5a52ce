import type { z } from 'zod';
import type { EndpointType } from '../routing/endpoint-type.js';
import type { ChannelConfig } from '../store/channels-repository.js';

/**
 * A wire endpoint an upstream serves itself, named after the protocol folder that speaks it.
 * Distinct from `EndpointType`: an anthropic channel serves clients of chat completions, but its
 * upstream only ever receives `anthropic-messages`.
 */
export type UpstreamEndpoint =
  | 'openai-chat'
  | 'openai-responses'
  | 'openai-responses-compact'
  | 'openai-alpha-search'
  | 'openai-images'
  | 'openai-embeddings'
  | 'jina-rerank'
  | 'anthropic-messages'
  | 'gemini-generate-content'
  | 'gemini-embed-content'
  | 'gemini-batch-embed-contents'
  | 'gemini-predict';

export interface UpstreamUrlRequest {
  /** The channel's `base_url`; null: the vendor's public origin. */
  baseUrl: string | null;
  endpoint: UpstreamEndpoint;
  /** The upstream model ID (after the channel's model mapping). */
  model: string;
  stream: boolean;
}

export interface UpstreamHeadersRequest {
  /** One of the channel's keys. */
  key: string;
  /**
   * Headers to forward, such as the client's own `anthropic-version` or `anthropic-beta`. They win
   * over the provider's defaults but never over its credentials; credential headers among them are
   * dropped.
   */
  extraHeaders?: Readonly<Record<string, string>>;
}

/** What the gateway knows of one upstream type: transport only (URL, auth, framing), no format logic. */
export interface ProviderDescriptor {
  type: string;
  /** The vendor's public origin, used when a channel sets no `base_url`. */
  defaultBaseUrl: string;
  /**
   * The channel `config` this type takes (admin-api section 5): a strict object, so an unknown
   * member is refused, with the type's defaults filled in.
   */
  configSchema: z.ZodType<ChannelConfig>;
  /** Endpoint types a channel of this type serves unless its `endpoints` field says otherwise (admin-api section 4). */
  endpointTypes: readonly EndpointType[];
  /** Wire endpoints the upstream serves natively. */
  upstreamEndpoints: readonly UpstreamEndpoint[];
  /** Where the channel test sends its one-token request. */
  probeEndpoint: UpstreamEndpoint;
  /** The full upstream URL, or undefined when this upstream does not serve `endpoint`. */
  buildUrl(request: UpstreamUrlRequest): string | undefined;
  /** Lower-case header names: content type, credentials, version headers. */
  buildHeaders(request: UpstreamHeadersRequest): Record<string, string>;
}
