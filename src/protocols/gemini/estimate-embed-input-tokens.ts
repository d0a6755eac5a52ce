import { estimateTextTokens } from '../../billing/estimate-tokens.js';
import { asArray, membersOf } from '../wire-json.js';

/**
 * Input tokens of an `EmbedContentRequest` (https://ai.google.dev/api/embeddings#EmbedContentRequest)
 * by the gateway's tokenizer: the text parts of `content` and the `title`, the text the model reads.
 * Read leniently for the pre-charge, before any validation; Gemini's embedding replies report no
 * usage, so this count is also what the request settles on when no other upstream reports one.
 */
export function estimateGeminiEmbedContentTokens(request: unknown): number {
  const { content, title } = membersOf(request);
  let tokens = typeof title === 'string' ? estimateTextTokens(title) : 0;
  for (const part of asArray(membersOf(content).parts)) {
    const { text } = membersOf(part);
    if (typeof text === 'string') tokens += estimateTextTokens(text);
  }
  return tokens;
}

/** The sum over the items of a `batchEmbedContents` body's `requests`. */
export function estimateGeminiBatchEmbedContentsTokens(body: unknown): number {
  let tokens = 0;
  for (const request of asArray(membersOf(body).requests))
    tokens += estimateGeminiEmbedContentTokens(request);
  return tokens;
}
