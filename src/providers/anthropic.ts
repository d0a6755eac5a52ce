import { z } from 'zod';
import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

/** Sent unless the client's own `anthropic-version` is forwarded; https://docs.anthropic.com/en/api/versioning */
export const ANTHROPIC_VERSION = '2023-06-01';

export const anthropicProvider: ProviderDescriptor = {
  type: 'anthropic',
  defaultBaseUrl: () => 'https://api.anthropic.com',
  configSchema: z.strictObject({}),
  endpointTypes: () => ['anthropic', 'openai'],
  upstreamEndpoints: () => ['anthropic-messages'],
  buildUrl({ origin, endpoint }) {
    if (endpoint !== 'anthropic-messages') return undefined;
    // https://docs.anthropic.com/en/api/messages
    return joinUpstreamUrl(origin, '/v1/messages');
  },
  buildHeaders({ key, extraHeaders }) {
    return mergeUpstreamHeaders({
      defaults: { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION },
      extra: extraHeaders,
      // https://docs.anthropic.com/en/api/overview#authentication
      credentials: { 'x-api-key': key },
    });
  },
};
