import type { EmbeddingReply } from '../../ir/embedding.js';
import { convertOpenAIEmbeddingsUsage } from './convert-openai-embeddings-usage.js';
import { decodeFloat32Base64 } from './float32-base64.js';
import { openAIEmbeddingsReplySchema } from './wire-schemas.js';

/**
 * An upstream's embeddings reply (https://platform.openai.com/docs/api-reference/embeddings/object)
 * in the canonical form. The vectors are put in the order of their `index` (the position where an
 * item has none); an item without a readable vector keeps its place with an empty one. Only a reply
 * without a `data` array is unusable.
 */
export function decodeOpenAIEmbeddingsReply(parsed: unknown): EmbeddingReply {
  const reply = openAIEmbeddingsReplySchema.safeParse(parsed);
  const data = reply.success ? reply.data.data : undefined;
  if (!reply.success || !data) throw new Error('the upstream embeddings reply has no data array');
  const items = data.map((item, position) => ({
    index: item?.index ?? position,
    vector: readVector(item?.embedding),
  }));
  items.sort((left, right) => left.index - right.index);
  return {
    vectors: items.map((item) => item.vector),
    usage: convertOpenAIEmbeddingsUsage(reply.data.usage),
  };
}

function readVector(embedding: number[] | string | undefined): number[] {
  if (embedding === undefined) return [];
  return typeof embedding === 'string' ? decodeFloat32Base64(embedding) : embedding;
}
