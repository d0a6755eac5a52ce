import { estimateTextTokens } from './estimate-tokens.js';
import type { TokenEstimate } from './token-estimate.js';

/** Tokens an image is counted as before the upstream reports (a high-detail 512x512 tile and base). */
const IMAGE_TOKENS = 765;
const SKIPPED_FIELDS = new Set(['model', 'stream', 'stream_options', 'metadata', 'user', 'store']);

/**
 * Input tokens of a request body in any protocol, for the pre-charge and for replies that report no
 * usage: every string the prompt carries counts, except inline file data, which counts as one image.
 * The bound is the texts' UTF-8 length (a token is at least one byte); the tokenizer runs only
 * when the count is asked for.
 */
export function estimatePromptTokens(body: Record<string, unknown>): TokenEstimate {
  const texts: string[] = [];
  // The UTF-8 length of the texts joined by newlines, summed as they are found.
  let textBytes = 0;
  let images = 0;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (typeof value === 'string') {
      if (value.startsWith('data:') || (value.length > 4096 && isBase64(value))) images += 1;
      else {
        if (texts.length > 0) textBytes += 1;
        textBytes += Buffer.byteLength(value);
        texts.push(value);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      for (const field of Object.keys(object)) {
        if (depth === 0 && SKIPPED_FIELDS.has(field)) continue;
        visit(object[field], depth + 1);
      }
    }
  };
  visit(body, 0);
  let counted: number | undefined;
  return {
    atMost: textBytes + images * IMAGE_TOKENS,
    // A long text's count is scaled from its prefix and could pass the bound without the cap.
    count: () =>
      (counted ??= Math.min(estimateTextTokens(texts.join('\n')), textBytes) + images * IMAGE_TOKENS),
  };
}

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/=\s]+$/.test(value.slice(0, 256));
}
