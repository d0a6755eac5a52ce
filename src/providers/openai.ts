import { createOpenAICompatibleProvider } from './openai-compatible.js';

export const openaiProvider = createOpenAICompatibleProvider({
  type: 'openai',
  defaultBaseUrl: 'https://api.openai.com',
  endpointTypes: ['openai', 'openai-response'],
});
