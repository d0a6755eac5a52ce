import { z } from 'zod';
import { joinUpstreamUrl } from './join-upstream-url.js';
import { mergeUpstreamHeaders } from './merge-upstream-headers.js';
import type { ProviderDescriptor, UpstreamEndpoint } from './provider-descriptor.js';

const GEMINI_ENDPOINTS: readonly UpstreamEndpoint[] = [
  'gemini-generate-content',
  'gemini-embed-content',
  'gemini-batch-embed-contents',
  'gemini-predict',
];

export const geminiProvider: ProviderDescriptor = {
  type: 'gemini',
  defaultBaseUrl: () => 'https://generativelanguage.googleapis.com',
  configSchema: z.strictObject({}),
  endpointTypes: () => ['gemini', 'openai'],
  upstreamEndpoints: () => GEMINI_ENDPOINTS,
  buildUrl({ origin, endpoint, model, stream }) {
    const method = methodOf(endpoint, stream);
    if (method === undefined) return undefined;
    return joinUpstreamUrl(origin, `/v1beta/${modelResourceName(model)}:${method}`);
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

function methodOf(endpoint: UpstreamEndpoint, stream: boolean): string | undefined {
  switch (endpoint) {
    // https://ai.google.dev/api/generate-content; `alt=sse` makes the stream server-sent events.
    case 'gemini-generate-content':
      return stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    // https://ai.google.dev/api/embeddings
    case 'gemini-embed-content':
      return 'embedContent';
    case 'gemini-batch-embed-contents':
      return 'batchEmbedContents';
    // https://ai.google.dev/gemini-api/docs/imagen (Imagen models answer `predict`)
    case 'gemini-predict':
      return 'predict';
    default:
      return undefined;
  }
}

/** `gemini-2.5-flash` -> `models/gemini-2.5-flash`; a name given with its collection stays as it is. */
function modelResourceName(model: string): string {
  const [collection, ...rest] = model.split('/');
  if ((collection === 'models' || collection === 'tunedModels') && rest.length > 0)
    return `${collection}/${rest.map(encodeURIComponent).join('/')}`;
  return `models/${encodeURIComponent(model)}`;
}
