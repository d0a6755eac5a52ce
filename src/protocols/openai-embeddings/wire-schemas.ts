import { z } from 'zod';
import { lenient, lenientArray } from '../lenient-schema.js';

/**
 * What the gateway reads of an upstream's `CreateEmbeddingResponse`
 * (https://platform.openai.com/docs/api-reference/embeddings/object; `CreateEmbeddingResponse` in
 * openai/resources/embeddings.d.ts), leniently: a member of the wrong type reads as absent. An
 * `embedding` is a float array, or a base64 string when the upstream answered in that format.
 */
const embedding = z.looseObject({
  index: lenient(z.number().int().nonnegative()),
  embedding: lenient(z.union([z.array(z.number()), z.string()])),
});

export const openAIEmbeddingsReplySchema = z.looseObject({
  data: lenientArray(embedding),
  model: lenient(z.string()),
  usage: z.unknown().optional(),
});
