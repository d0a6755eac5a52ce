import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Together AI (https://docs.together.ai/reference/chat-completions-1). */
export const togetherProvider = createOpenAICompatibleProvider({
  type: 'together',
  defaultBaseUrl: 'https://api.together.xyz',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings', 'openai-images', 'jina-rerank'],
});
