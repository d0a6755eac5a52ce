import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Moonshot AI, Kimi (https://platform.moonshot.ai/docs/api/chat); thinking as `reasoning_content`. */
export const moonshotProvider = createOpenAICompatibleProvider({
  type: 'moonshot',
  defaultBaseUrl: 'https://api.moonshot.ai',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat'],
  reasoningField: 'reasoning_content',
});
