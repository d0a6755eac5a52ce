import type { EndpointType } from '../routing/endpoint-type.js';

/** What the gateway knows of one upstream type. The only list to edit when adding a provider. */
export interface ProviderDescriptor {
  type: string;
  /** The vendor's public origin, used when a channel sets no `base_url`. */
  defaultBaseUrl: string;
  /** Endpoint types a channel of this type serves unless its `endpoints` field says otherwise (admin-api section 4). */
  endpointTypes: readonly EndpointType[];
}

const providers: readonly ProviderDescriptor[] = [
  { type: 'openai', defaultBaseUrl: 'https://api.openai.com', endpointTypes: ['openai', 'openai-response'] },
  { type: 'anthropic', defaultBaseUrl: 'https://api.anthropic.com', endpointTypes: ['anthropic', 'openai'] },
  {
    type: 'gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    endpointTypes: ['gemini', 'openai'],
  },
];

const byType = new Map(providers.map((provider) => [provider.type, provider]));

export const providerTypes: readonly string[] = providers.map((provider) => provider.type);

export function findProvider(type: string): ProviderDescriptor | undefined {
  return byType.get(type);
}
