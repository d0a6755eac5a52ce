import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Groq (https://console.groq.com/docs/openai); thinking as `reasoning` (https://console.groq.com/docs/reasoning). */
export const groqProvider = createOpenAICompatibleProvider({
  type: 'groq',
  defaultBaseUrl: 'https://api.groq.com/openai',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat'],
  reasoningField: 'reasoning',
});
