import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/**
 * DeepSeek (https://api-docs.deepseek.com/); thinking comes as `reasoning_content` and goes back in
 * it for turns with tool calls (https://api-docs.deepseek.com/guides/thinking_mode#tool-calls).
 */
export const deepseekProvider = createOpenAICompatibleProvider({
  type: 'deepseek',
  defaultBaseUrl: 'https://api.deepseek.com',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat'],
  reasoningField: 'reasoning_content',
});
