import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Mistral AI (https://docs.mistral.ai/api/). */
export const mistralProvider = createOpenAICompatibleProvider({
  type: 'mistral',
  defaultBaseUrl: 'https://api.mistral.ai',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
});
