import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Fireworks AI (https://docs.fireworks.ai/api-reference/post-chatcompletions). */
export const fireworksProvider = createOpenAICompatibleProvider({
  type: 'fireworks',
  defaultBaseUrl: 'https://api.fireworks.ai/inference',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
});
