import type { ModelMetadataRecord } from '../store/model-metadata-repository.js';

/** A model's metadata as `/api/models` shows it (admin-api section 11.1). */
export function serializeModelMetadata(metadata: ModelMetadataRecord) {
  return {
    model: metadata.model,
    context_window: metadata.contextWindow,
    max_output_tokens: metadata.maxOutputTokens,
    capabilities: metadata.capabilities,
  };
}
