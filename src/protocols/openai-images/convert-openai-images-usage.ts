import type { Usage } from '../../ir/usage.js';
import { asCount } from '../wire-json.js';
import { openAIImagesUsageSchema } from './wire-schemas.js';

/**
 * `ImagesResponse.usage` (https://platform.openai.com/docs/api-reference/images/object#images/object-usage)
 * to canonical usage. `input_tokens` already sums the prompt's text and image tokens
 * (`input_tokens_details`), and `output_tokens` counts the generated image's tokens, which is the
 * canonical meaning. A block without either count is no usage at all: the reply is then billed
 * per image.
 */
export function convertOpenAIImagesUsage(raw: unknown): Usage | undefined {
  const parsed = openAIImagesUsageSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const input = asCount(parsed.data.input_tokens);
  const output = asCount(parsed.data.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input,
    cacheReadTokens: asCount(parsed.data.input_tokens_details?.cached_tokens) ?? 0,
    cacheWriteTokens: 0,
    outputTokens: output,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
    raw,
  };
}
