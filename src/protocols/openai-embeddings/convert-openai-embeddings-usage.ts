import { embeddingUsage } from '../../ir/embedding.js';
import type { Usage } from '../../ir/usage.js';
import { asCount, isJsonObject } from '../wire-json.js';

/**
 * The `usage` of an embeddings reply
 * (https://platform.openai.com/docs/api-reference/embeddings/object): `prompt_tokens` are the input
 * tokens; an embedding produces no output tokens. Undefined when the reply carries no count.
 */
export function convertOpenAIEmbeddingsUsage(raw: unknown): Usage | undefined {
  if (!isJsonObject(raw)) return undefined;
  const inputTokens = asCount(raw.prompt_tokens);
  if (inputTokens === undefined) return undefined;
  return embeddingUsage({ inputTokens, raw });
}
