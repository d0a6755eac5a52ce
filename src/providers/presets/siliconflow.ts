import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** SiliconFlow (https://docs.siliconflow.cn/en/api-reference/chat-completions/chat-completions); thinking as `reasoning_content`. */
export const siliconflowProvider = createOpenAICompatibleProvider({
  type: 'siliconflow',
  defaultBaseUrl: 'https://api.siliconflow.cn',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings', 'openai-images', 'jina-rerank'],
  reasoningField: 'reasoning_content',
});
