import type { EmbeddingReply } from '../../ir/embedding.js';
import type { OpenAIEmbeddingEncoding } from './decode-request.js';
import { encodeFloat32Base64 } from './float32-base64.js';

/**
 * A canonical embedding reply as OpenAI's `CreateEmbeddingResponse`
 * (https://platform.openai.com/docs/api-reference/embeddings/object), each vector as floats or as
 * base64 float32 (`encoding_format`). `model` is the name the client asked for; `inputTokens` the
 * count the request is billed by (the upstream's, else the gateway's own).
 */
export function encodeOpenAIEmbeddingsReply(
  reply: EmbeddingReply,
  options: { model: string; encodingFormat: OpenAIEmbeddingEncoding; inputTokens: number },
): Record<string, unknown> {
  return {
    object: 'list',
    data: reply.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: options.encodingFormat === 'base64' ? encodeFloat32Base64(vector) : vector,
    })),
    model: options.model,
    usage: { prompt_tokens: options.inputTokens, total_tokens: options.inputTokens },
  };
}
