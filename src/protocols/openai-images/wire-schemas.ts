import { z } from 'zod';
import { lenient, lenientArray } from '../lenient-schema.js';

/**
 * What image generation upstreams send, read leniently (STYLE rule 8): only the members the
 * decoders read, each optional, and a value of the wrong type is taken as absent. Shapes:
 * `ImagesResponse` and `Image` in openai/resources/images.d.ts
 * (https://platform.openai.com/docs/api-reference/images/object).
 */

/** `ImagesResponse.Usage`: `input_tokens` counts text and image tokens of the prompt. */
export const openAIImagesUsageSchema = z.looseObject({
  input_tokens: lenient(z.number()),
  output_tokens: lenient(z.number()),
  input_tokens_details: lenient(
    z.looseObject({
      text_tokens: lenient(z.number()),
      image_tokens: lenient(z.number()),
      cached_tokens: lenient(z.number()),
    }),
  ),
});

const image = z.looseObject({
  b64_json: lenient(z.string()),
  url: lenient(z.string()),
  revised_prompt: lenient(z.string()),
});

export const openAIImagesResponseSchema = z.looseObject({
  created: lenient(z.number()),
  data: lenientArray(image),
  output_format: lenient(z.string()),
  usage: z.unknown().optional(),
});

export type OpenAIImagesResponseRead = z.infer<typeof openAIImagesResponseSchema>;
