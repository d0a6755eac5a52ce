import { anthropicProvider } from './anthropic.js';
import { geminiProvider } from './gemini.js';
import { openaiProvider } from './openai.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

export type { ProviderDescriptor } from './provider-descriptor.js';

/** The only list to edit when adding a provider. */
const providers: readonly ProviderDescriptor[] = [openaiProvider, anthropicProvider, geminiProvider];

const byType = new Map(providers.map((provider) => [provider.type, provider]));

export const providerTypes: readonly string[] = providers.map((provider) => provider.type);

export function findProvider(type: string): ProviderDescriptor | undefined {
  return byType.get(type);
}
