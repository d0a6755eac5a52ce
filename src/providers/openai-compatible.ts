import { z } from 'zod';
import type { EndpointType } from '../routing/endpoint-type.js';
import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

// https://platform.openai.com/docs/api-reference
const paths: Partial<Record<UpstreamEndpoint, string>> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'openai-responses-compact': '/v1/responses/compact',
  'openai-alpha-search': '/v1/alpha/search',
  'openai-images': '/v1/images/generations',
  'openai-embeddings': '/v1/embeddings',
  // https://jina.ai/reranker/ — the rerank API OpenAI-compatible vendors (Jina, vLLM, SiliconFlow) serve.
  'jina-rerank': '/v1/rerank',
};

/** A vendor that speaks OpenAI's API with a Bearer key: one call per vendor file. */
export function createOpenAICompatibleProvider(options: {
  type: string;
  defaultBaseUrl: string;
  endpointTypes: readonly EndpointType[];
  upstreamEndpoints?: readonly UpstreamEndpoint[];
}): ProviderDescriptor {
  const upstreamEndpoints = options.upstreamEndpoints ?? (Object.keys(paths) as UpstreamEndpoint[]);
  const served = new Set(upstreamEndpoints);
  return {
    type: options.type,
    defaultBaseUrl: options.defaultBaseUrl,
    configSchema: z.strictObject({}),
    endpointTypes: options.endpointTypes,
    upstreamEndpoints,
    probeEndpoint: 'openai-chat',
    buildUrl({ baseUrl, endpoint }) {
      const path = paths[endpoint];
      if (!path || !served.has(endpoint)) return undefined;
      return joinUpstreamUrl(baseUrl ?? options.defaultBaseUrl, path);
    },
    buildHeaders({ key, extraHeaders }) {
      return mergeUpstreamHeaders({
        defaults: { 'content-type': 'application/json' },
        extra: extraHeaders,
        // https://platform.openai.com/docs/api-reference/authentication
        credentials: { authorization: `Bearer ${key}` },
      });
    },
  };
}
