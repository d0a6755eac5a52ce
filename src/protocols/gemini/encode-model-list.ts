import type { AvailableModel } from '../../routing/available-models.js';
import type { EndpointType } from '../../routing/endpoint-type.js';

/** Endpoint types a model is generated with through generateContent, from any client family. */
const conversational: ReadonlySet<EndpointType> = new Set([
  'openai',
  'openai-response',
  'anthropic',
  'gemini',
]);

/** The Gemini methods the gateway serves for a model; countTokens is not offered. */
function generationMethods(model: AvailableModel): string[] {
  const methods: string[] = [];
  if (model.endpointTypes.some((type) => conversational.has(type)))
    methods.push('generateContent', 'streamGenerateContent');
  if (model.endpointTypes.includes('embeddings')) methods.push('embedContent', 'batchEmbedContents');
  return methods;
}

/** Gemini `Model` resource (https://ai.google.dev/api/models#Model). */
export function encodeGeminiModel(model: AvailableModel) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.id,
    description: `${model.id} served by ${model.ownedBy}`,
    supportedGenerationMethods: generationMethods(model),
  };
}

/** `ListModels` response (https://ai.google.dev/api/models#method:-models.list), one page. */
export function encodeGeminiModelList(models: readonly AvailableModel[]) {
  return { models: models.map(encodeGeminiModel) };
}
