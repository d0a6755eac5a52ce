import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/**
 * Fireworks AI (https://docs.fireworks.ai/api-reference/post-chatcompletions); thinking as
 * `reasoning_content`, taken back in tool loops (https://docs.fireworks.ai/guides/reasoning#interleaved-thinking).
 */
export const fireworksProvider = createOpenAICompatibleProvider({
  type: 'fireworks',
  defaultBaseUrl: 'https://api.fireworks.ai/inference',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
  reasoningField: 'reasoning_content',
});
