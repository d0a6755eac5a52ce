import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Zhipu AI, GLM (https://docs.bigmodel.cn/api-reference), whose API version is `v4`; thinking as `reasoning_content`. */
export const zhipuProvider = createOpenAICompatibleProvider({
  type: 'zhipu',
  defaultBaseUrl: 'https://open.bigmodel.cn/api/paas',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
  versionPath: '/v4',
  reasoningField: 'reasoning_content',
});
