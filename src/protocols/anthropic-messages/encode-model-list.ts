import type { AvailableModel } from '../../routing/available-models.js';

/** A fixed value: client-api 2.2 says `created_at` carries no meaning. */
const MODEL_CREATED_AT = '2024-01-01T00:00:00Z';

export function encodeAnthropicModel(model: AvailableModel) {
  return { id: model.id, display_name: model.id, type: 'model', created_at: MODEL_CREATED_AT };
}

/** Family B list envelope (client-api 2.2): everything in one page. */
export function encodeAnthropicModelList(models: readonly AvailableModel[]) {
  return {
    data: models.map(encodeAnthropicModel),
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
    has_more: false,
  };
}
