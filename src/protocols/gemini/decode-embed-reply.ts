import { z } from 'zod';
import type { EmbeddingReply } from '../../ir/embedding.js';
import { lenient, lenientArray } from '../lenient-schema.js';

/** `ContentEmbedding` (https://ai.google.dev/api/embeddings#contentembedding), read leniently. */
const contentEmbedding = z.looseObject({ values: lenient(z.array(z.number())) });

/**
 * `EmbedContentResponse` (`embedding`) and `BatchEmbedContentsResponse` (`embeddings`)
 * (https://ai.google.dev/api/embeddings#response-body); neither carries token usage.
 */
const embedReplySchema = z.looseObject({
  embedding: lenient(contentEmbedding),
  embeddings: lenientArray(contentEmbedding),
});

/**
 * A Gemini embedding reply, of either method, in the canonical form. An item without readable
 * values keeps its place with an empty vector; a reply with neither member is unusable. Usage is
 * unknown: the relay bills the gateway's own count of the input.
 */
export function decodeGeminiEmbedReply(parsed: unknown): EmbeddingReply {
  const reply = embedReplySchema.safeParse(parsed);
  if (reply.success && reply.data.embeddings)
    return { vectors: reply.data.embeddings.map((item) => item?.values ?? []), usage: undefined };
  if (reply.success && reply.data.embedding)
    return { vectors: [reply.data.embedding.values ?? []], usage: undefined };
  throw new Error('the upstream embedding reply has neither embedding nor embeddings');
}
