import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** xAI (https://docs.x.ai/docs/api-reference). */
export const xaiProvider = createOpenAICompatibleProvider({
  type: 'xai',
  defaultBaseUrl: 'https://api.x.ai',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-images'],
});
