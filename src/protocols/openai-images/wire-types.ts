/**
 * Image generation wire shapes as the gateway writes them, after `ImagesResponse` and `Image` in
 * openai/resources/images.d.ts (https://platform.openai.com/docs/api-reference/images/object).
 */

/** `ImagesResponse.Usage`: reported by the GPT image models only. */
export interface OpenAIImagesUsage {
  /** Text and image tokens of the prompt. */
  input_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
  output_tokens: number;
  total_tokens: number;
}

/** `Image`: one picture, as base64 or as a link, and the prompt dall-e-3 drew from. */
export interface OpenAIImagesImage {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
}

/** `ImagesResponse` */
export interface OpenAIImagesResponse {
  /** Unix seconds. */
  created: number;
  data: OpenAIImagesImage[];
  output_format?: 'png' | 'jpeg' | 'webp';
  usage?: OpenAIImagesUsage;
}

/** The request members the decoder maps (`ImageGenerateParamsBase`); the rest travel as extensions. */
export const OPENAI_IMAGES_MAPPED_MEMBERS = [
  'model',
  'prompt',
  'n',
  'size',
  'response_format',
  'output_format',
  'output_compression',
  'stream',
  'partial_images',
  'negative_prompt',
  'person_generation',
] as const;
