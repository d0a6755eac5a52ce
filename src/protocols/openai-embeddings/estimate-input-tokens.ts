import { estimateTextTokens } from '../../billing/estimate-tokens.js';

/**
 * Input tokens of an embeddings request's `input`
 * (https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-input), read
 * leniently for the pre-charge: texts by the gateway's tokenizer, token arrays by their length.
 * The body is not yet validated here: what is neither text nor token ids counts nothing, and the
 * upstream refuses it anyway.
 */
export function estimateOpenAIEmbeddingsInputTokens(input: unknown): number {
  if (typeof input === 'string') return estimateTextTokens(input);
  if (!Array.isArray(input)) return 0;
  let tokens = 0;
  for (const item of input) {
    if (typeof item === 'string') tokens += estimateTextTokens(item);
    else if (typeof item === 'number') tokens += 1;
    else if (Array.isArray(item)) tokens += item.filter((token) => typeof token === 'number').length;
  }
  return tokens;
}
