import type { AvailableModel } from '../../routing/available-models.js';

/** A fixed value: client-api 2.1 says `created` carries no meaning. */
const MODEL_CREATED = 1_626_777_600;

export function encodeOpenAIModel(model: AvailableModel) {
  return {
    id: model.id,
    object: 'model',
    created: MODEL_CREATED,
    owned_by: model.ownedBy,
    supported_endpoint_types: model.endpointTypes,
  };
}

/** Family A list envelope (client-api 2.1). */
export function encodeOpenAIModelList(models: readonly AvailableModel[]) {
  return { object: 'list', success: true, data: models.map(encodeOpenAIModel) };
}
