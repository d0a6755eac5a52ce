import type { EmbeddingReply } from '../../ir/embedding.js';

/**
 * A canonical embedding reply as `EmbedContentResponse`
 * (https://ai.google.dev/api/embeddings#EmbedContentResponse): the one vector of the one input.
 */
export function encodeGeminiEmbedContentReply(reply: EmbeddingReply): Record<string, unknown> {
  return { embedding: { values: reply.vectors[0] ?? [] } };
}

/**
 * A canonical embedding reply as `BatchEmbedContentsResponse`
 * (https://ai.google.dev/api/embeddings#BatchEmbedContentsResponse): the vectors in request order.
 * Gemini's embedding replies have no place for usage; the upstream's count only bills the request.
 */
export function encodeGeminiBatchEmbedContentsReply(reply: EmbeddingReply): Record<string, unknown> {
  return { embeddings: reply.vectors.map((values) => ({ values })) };
}
