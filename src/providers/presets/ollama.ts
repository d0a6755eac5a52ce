import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** A local Ollama server (https://github.com/ollama/ollama/blob/main/docs/openai.md); no key needed. */
export const ollamaProvider = createOpenAICompatibleProvider({
  type: 'ollama',
  defaultBaseUrl: 'http://127.0.0.1:11434',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
  keyOptional: true,
});
