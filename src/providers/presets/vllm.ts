import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** A vLLM server (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html); thinking as `reasoning_content`, no key needed unless it was started with one. */
export const vllmProvider = createOpenAICompatibleProvider({
  type: 'vllm',
  defaultBaseUrl: 'http://127.0.0.1:8000',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-responses', 'openai-embeddings', 'jina-rerank'],
  keyOptional: true,
  reasoningField: 'reasoning_content',
});
