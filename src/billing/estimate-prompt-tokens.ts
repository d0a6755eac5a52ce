import { estimateTextTokens } from './estimate-tokens.js';

/** Tokens an image is counted as before the upstream reports (a high-detail 512x512 tile and base). */
const IMAGE_TOKENS = 765;
const SKIPPED_FIELDS = new Set(['model', 'stream', 'stream_options', 'metadata', 'user', 'store']);

/**
 * Input tokens of a request body in any protocol, for the pre-charge and for replies that report no
 * usage: every string the prompt carries is tokenized, except inline file data, which counts as one image.
 */
export function estimatePromptTokens(body: Record<string, unknown>): number {
  const texts: string[] = [];
  let images = 0;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (typeof value === 'string') {
      if (value.startsWith('data:') || (value.length > 4096 && isBase64(value))) images += 1;
      else texts.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [field, item] of Object.entries(value)) {
        if (depth === 0 && SKIPPED_FIELDS.has(field)) continue;
        visit(item, depth + 1);
      }
    }
  };
  visit(body, 0);
  return estimateTextTokens(texts.join('\n')) + images * IMAGE_TOKENS;
}

function isBase64(value: string): boolean {
  return /^[A-Za-z0-9+/=\s]+$/.test(value.slice(0, 256));
}
