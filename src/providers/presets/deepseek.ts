import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** DeepSeek (https://api-docs.deepseek.com/); its thinking comes as `reasoning_content`. */
export const deepseekProvider = createOpenAICompatibleProvider({
  type: 'deepseek',
  defaultBaseUrl: 'https://api.deepseek.com',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat'],
});
