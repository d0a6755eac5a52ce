import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

export const geminiProvider: ProviderDescriptor = {
  type: 'gemini',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  endpointTypes: ['gemini', 'openai'],
  upstreamEndpoints: ['gemini-generate-content'],
  probeEndpoint: 'gemini-generate-content',
  buildUrl({ baseUrl, endpoint, model, stream }) {
    if (endpoint !== 'gemini-generate-content') return undefined;
    // https://ai.google.dev/api/generate-content; `alt=sse` makes the stream server-sent events.
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return joinUpstreamUrl(
      baseUrl ?? geminiProvider.defaultBaseUrl,
      `/v1beta/${modelResourceName(model)}:${method}`,
    );
  },
  buildHeaders({ key, extraHeaders }) {
    return mergeUpstreamHeaders({
      defaults: { 'content-type': 'application/json' },
      extra: extraHeaders,
      // https://ai.google.dev/gemini-api/docs/api-key
      credentials: { 'x-goog-api-key': key },
    });
  },
};

/** `gemini-2.5-flash` -> `models/gemini-2.5-flash`; a name given with its collection stays as it is. */
function modelResourceName(model: string): string {
  const [collection, ...rest] = model.split('/');
  if ((collection === 'models' || collection === 'tunedModels') && rest.length > 0)
    return `${collection}/${rest.map(encodeURIComponent).join('/')}`;
  return `models/${encodeURIComponent(model)}`;
}
