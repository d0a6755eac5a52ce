import { z } from 'zod';
import { MODEL_CAPABILITIES } from '../store/model-metadata-repository.js';

const tokenCount = z.number().int().positive().max(100_000_000).nullable().default(null);

/**
 * Body of `PUT /api/models/{model}` (admin-api section 11.1): every member optional, null meaning
 * unknown (a model whose capabilities are unknown is never excluded; `[]` says it has none).
 */
export const putModelMetadataSchema = z.strictObject({
  context_window: tokenCount,
  max_output_tokens: tokenCount,
  capabilities: z
    .array(z.enum(MODEL_CAPABILITIES))
    .max(MODEL_CAPABILITIES.length)
    .refine(
      (capabilities) => new Set(capabilities).size === capabilities.length,
      'must not repeat a capability',
    )
    .nullable()
    .default(null),
});

export const MODEL_METADATA_READ_ONLY_FIELDS = ['model'] as const;
