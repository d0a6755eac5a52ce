import { anthropicProvider } from './anthropic.js';
import { azureProvider } from './azure.js';
import { bedrockProvider } from './bedrock/bedrock-provider.js';
import { geminiProvider } from './gemini.js';
import { openaiProvider } from './openai.js';
import { deepseekProvider } from './presets/deepseek.js';
import { fireworksProvider } from './presets/fireworks.js';
import { groqProvider } from './presets/groq.js';
import { mistralProvider } from './presets/mistral.js';
import { moonshotProvider } from './presets/moonshot.js';
import { ollamaProvider } from './presets/ollama.js';
import { openrouterProvider } from './presets/openrouter.js';
import { qwenProvider } from './presets/qwen.js';
import { siliconflowProvider } from './presets/siliconflow.js';
import { togetherProvider } from './presets/together.js';
import { vllmProvider } from './presets/vllm.js';
import { xaiProvider } from './presets/xai.js';
import { zhipuProvider } from './presets/zhipu.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { vertexProvider } from './vertex/vertex-provider.js';

export type { ProviderDescriptor } from './provider-descriptor.js';

/** The only list to edit when adding a provider. */
const providers: readonly ProviderDescriptor[] = [
  openaiProvider,
  anthropicProvider,
  geminiProvider,
  azureProvider,
  bedrockProvider,
  vertexProvider,
  deepseekProvider,
  openrouterProvider,
  xaiProvider,
  mistralProvider,
  groqProvider,
  togetherProvider,
  fireworksProvider,
  moonshotProvider,
  zhipuProvider,
  qwenProvider,
  siliconflowProvider,
  ollamaProvider,
  vllmProvider,
];

const byType = new Map(providers.map((provider) => [provider.type, provider]));

export const providerTypes: readonly string[] = providers.map((provider) => provider.type);

export function findProvider(type: string): ProviderDescriptor | undefined {
  return byType.get(type);
}
