import { loadOnFirstUse } from '../load-on-first-use.js';

/** Text beyond this many characters is extrapolated from the tokenized part, to bound CPU per request. */
const EXACT_PREFIX_CHARS = 32_768;

/**
 * The o200k vocabulary takes about 20 MB of heap and a fifth of a second to load, and most requests
 * never need it (their upstream reports usage): it is loaded the first time a text is counted.
 */
const tokenizer = loadOnFirstUse<{ countTokens(text: string): number }>('gpt-tokenizer/encoding/o200k_base');

/** Token count of a text with a real tokenizer (o200k); long texts are measured on a prefix and scaled. */
export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= EXACT_PREFIX_CHARS) return tokenizer().countTokens(text);
  const prefixTokens = tokenizer().countTokens(text.slice(0, EXACT_PREFIX_CHARS));
  return Math.ceil((prefixTokens * text.length) / EXACT_PREFIX_CHARS);
}
