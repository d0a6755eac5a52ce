import { z } from 'zod';
import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

/**
 * `v1`: the version-less API (https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle),
 * or a dated version such as `2024-10-21` or `2025-04-01-preview`.
 */
const apiVersion = z
  .string()
  .regex(/^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/, 'must be "v1" or a dated version such as "2024-10-21"');

const configSchema = z.strictObject({ api_version: apiVersion.default('v1') });

/** Paths after `/openai/v1` (the v1 API) or `/openai/deployments/{deployment}` (dated versions). */
const paths: Partial<Record<UpstreamEndpoint, string>> = {
  'openai-chat': '/chat/completions',
  'openai-responses': '/responses',
  'openai-embeddings': '/embeddings',
  'openai-images': '/images/generations',
  'openai-audio-speech': '/audio/speech',
  'openai-audio-transcriptions': '/audio/transcriptions',
  'openai-audio-translations': '/audio/translations',
  'openai-realtime': '/realtime',
};
const upstreamEndpoints = Object.keys(paths) as UpstreamEndpoint[];
/** Dated versions before this have no Responses API; their Responses clients are converted to chat. */
const FIRST_RESPONSES_VERSION = '2025-03-01-preview';
const withoutResponses = upstreamEndpoints.filter((endpoint) => endpoint !== 'openai-responses');

/**
 * Azure OpenAI: an `api-key` header, and the channel's deployment names as models. With
 * `api_version: "v1"` the deployment goes in the body's `model` of `/openai/v1/...`; with a dated
 * version it is in the path, `/openai/deployments/{deployment}/...?api-version=` — except the
 * Responses API, which takes it in the body at `/openai/responses?api-version=`.
 * https://learn.microsoft.com/azure/ai-foundry/openai/reference
 */
export const azureProvider: ProviderDescriptor = {
  type: 'azure',
  defaultBaseUrl: () => undefined,
  configSchema,
  endpointTypes: () => ['openai', 'openai-response'],
  upstreamEndpoints: (_model, config) => {
    const version = configSchema.parse(config).api_version;
    return version === 'v1' || version >= FIRST_RESPONSES_VERSION ? upstreamEndpoints : withoutResponses;
  },
  buildUrl({ origin, config, endpoint, model }) {
    const path = paths[endpoint];
    if (!path) return undefined;
    const root = resourceRoot(origin);
    const version = configSchema.parse(config).api_version;
    if (endpoint === 'openai-realtime') return realtimeUrl(root, version, model);
    if (version === 'v1') return `${root}/openai/v1${path}`;
    const query = `?api-version=${encodeURIComponent(version)}`;
    if (endpoint === 'openai-responses') return `${root}/openai${path}${query}`;
    return `${root}/openai/deployments/${encodeURIComponent(model)}${path}${query}`;
  },
  buildHeaders({ key, extraHeaders }) {
    return mergeUpstreamHeaders({
      defaults: { 'content-type': 'application/json' },
      extra: extraHeaders,
      // https://learn.microsoft.com/azure/ai-foundry/openai/reference#authentication
      credentials: { 'api-key': key },
    });
  },
};

/**
 * The Realtime WebSocket: on the v1 API the deployment is the `model` query member; a dated
 * version takes it as `deployment`, beside `api-version`, at `/openai/realtime`.
 * https://learn.microsoft.com/azure/ai-foundry/openai/how-to/realtime-audio-websockets
 */
function realtimeUrl(root: string, version: string, deployment: string): string {
  if (version === 'v1') return `${root}/openai/v1/realtime?model=${encodeURIComponent(deployment)}`;
  const query = `api-version=${encodeURIComponent(version)}&deployment=${encodeURIComponent(deployment)}`;
  return `${root}/openai/realtime?${query}`;
}

/** The resource's origin, whether `base_url` was given with `/openai` or `/openai/v1` or without. */
function resourceRoot(origin: string): string {
  return joinUpstreamUrl(origin, '')
    .replace(/\/openai$/i, '')
    .replace(/\/+$/, '');
}
