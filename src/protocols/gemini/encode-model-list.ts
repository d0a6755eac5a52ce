import type { AvailableModel } from '../../routing/available-models.js';

/**
 * Gemini `Model` resource (https://ai.google.dev/api/models#Model). The gateway serves
 * generateContent and its streaming form for every listed model; countTokens is not offered.
 */
export function encodeGeminiModel(model: AvailableModel) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.id,
    description: `${model.id} served by ${model.ownedBy}`,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
  };
}

/** `ListModels` response (https://ai.google.dev/api/models#method:-models.list), one page. */
export function encodeGeminiModelList(models: readonly AvailableModel[]) {
  return { models: models.map(encodeGeminiModel) };
}
