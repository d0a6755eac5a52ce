import { createOpenAICompatibleProvider } from '../openai-compatible.js';

/** Qwen on Alibaba Cloud Model Studio, OpenAI-compatible mode (https://www.alibabacloud.com/help/en/model-studio/compatibility-of-openai-with-dashscope); thinking as `reasoning_content`. */
export const qwenProvider = createOpenAICompatibleProvider({
  type: 'qwen',
  defaultBaseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode',
  endpointTypes: ['openai'],
  upstreamEndpoints: ['openai-chat', 'openai-embeddings'],
  reasoningField: 'reasoning_content',
});
