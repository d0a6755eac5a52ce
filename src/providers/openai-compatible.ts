import { z } from 'zod';
import type { ChatReasoningField } from '../protocols/protocol-codec.js';
import type { EndpointType } from '../routing/endpoint-type.js';
import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

// https://platform.openai.com/docs/api-reference, after the API version (`/v1`)
const paths: Partial<Record<UpstreamEndpoint, string>> = {
  'openai-chat': '/chat/completions',
  'openai-responses': '/responses',
  'openai-responses-compact': '/responses/compact',
  'openai-alpha-search': '/alpha/search',
  'openai-images': '/images/generations',
  'openai-embeddings': '/embeddings',
  // https://jina.ai/reranker/ — the rerank API OpenAI-compatible vendors (Jina, vLLM, SiliconFlow) serve.
  'jina-rerank': '/rerank',
  'openai-audio-speech': '/audio/speech',
  'openai-audio-transcriptions': '/audio/transcriptions',
  'openai-audio-translations': '/audio/translations',
  // https://platform.openai.com/docs/guides/realtime-websocket — the model goes in the query.
  'openai-realtime': '/realtime',
};

export const OPENAI_COMPATIBLE_ENDPOINTS = Object.keys(paths) as UpstreamEndpoint[];

/** A vendor that speaks OpenAI's API with a Bearer key: one call per vendor file. */
export function createOpenAICompatibleProvider(options: {
  type: string;
  defaultBaseUrl: string;
  endpointTypes: readonly EndpointType[];
  upstreamEndpoints?: readonly UpstreamEndpoint[];
  /** Local servers (Ollama, vLLM) run without a key; none is sent then. */
  keyOptional?: boolean;
  /** The API version segment before every path; `/v1` unless the vendor's differs (Zhipu: `/v4`). */
  versionPath?: string;
  /** The vendor's own chat message member for model thinking; OpenAI's API has none. */
  reasoningField?: ChatReasoningField;
}): ProviderDescriptor {
  const versionPath = options.versionPath ?? '/v1';
  const upstreamEndpoints = options.upstreamEndpoints ?? OPENAI_COMPATIBLE_ENDPOINTS;
  const served = new Set(upstreamEndpoints);
  return {
    type: options.type,
    defaultBaseUrl: () => options.defaultBaseUrl,
    configSchema: z.strictObject({}),
    keyOptional: options.keyOptional ?? false,
    ...(options.reasoningField && { reasoningField: options.reasoningField }),
    endpointTypes: () => options.endpointTypes,
    upstreamEndpoints: () => upstreamEndpoints,
    buildUrl({ origin, endpoint, model }) {
      const path = paths[endpoint];
      if (!path || !served.has(endpoint)) return undefined;
      const url = joinUpstreamUrl(withoutTrailing(origin, versionPath), versionPath + path);
      return endpoint === 'openai-realtime' ? `${url}?model=${encodeURIComponent(model)}` : url;
    },
    buildHeaders({ key, extraHeaders }) {
      return mergeUpstreamHeaders({
        defaults: { 'content-type': 'application/json' },
        extra: extraHeaders,
        // https://platform.openai.com/docs/api-reference/authentication
        credentials: key === '' ? {} : { authorization: `Bearer ${key}` },
      });
    },
  };
}

/** A base URL given with the vendor's own version segment is not doubled (`/v4` then `/v4/...`). */
function withoutTrailing(origin: string, segment: string): string {
  const trimmed = origin.trim().replace(/\/+$/, '');
  return trimmed.toLowerCase().endsWith(segment) ? trimmed.slice(0, -segment.length) : trimmed;
}
