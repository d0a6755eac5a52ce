import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/**
 * OpenRouter (https://openrouter.ai/docs/api-reference/overview); thinking as `reasoning`, taken
 * back on assistant messages
 * (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks); generated
 * images as `images`.
 */
export const openrouterProvider = createOpenAICompatibleProvider({
  type: 'openrouter',
  defaultBaseUrl: 'https://openrouter.ai/api',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat'],
  reasoningField: 'reasoning',
});
