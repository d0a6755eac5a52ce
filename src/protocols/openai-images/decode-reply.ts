import type { GeneratedImage, ImageGenerationReply } from '../../ir/image-generation.js';
import { convertOpenAIImagesUsage } from './convert-openai-images-usage.js';
import { openAIImagesResponseSchema } from './wire-schemas.js';

/** `output_format` of a GPT image reply as the media type of its images. */
const mediaTypes: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * An `ImagesResponse` (https://platform.openai.com/docs/api-reference/images/object) in the
 * canonical form, read leniently: each entry of `data` with a `b64_json` or a `url` is one image,
 * and `usage` (GPT image models only) is the token usage. Entries with neither are no image.
 */
export function decodeOpenAIImagesReply(body: unknown): ImageGenerationReply {
  const parsed = openAIImagesResponseSchema.safeParse(body);
  if (!parsed.success) return { images: [] };
  const response = parsed.data;
  const mediaType = response.output_format ? mediaTypes[response.output_format] : undefined;
  const images: GeneratedImage[] = [];
  for (const entry of response.data ?? []) {
    if (!entry) continue;
    let image: GeneratedImage;
    if (entry.b64_json !== undefined)
      image = { data: { kind: 'base64', data: entry.b64_json, ...(mediaType && { mediaType }) } };
    else if (entry.url !== undefined) image = { data: { kind: 'url', url: entry.url } };
    else continue;
    if (entry.revised_prompt !== undefined) image.revisedPrompt = entry.revised_prompt;
    images.push(image);
  }
  const reply: ImageGenerationReply = { images };
  if (response.created !== undefined) reply.created = response.created;
  const usage = convertOpenAIImagesUsage(response.usage);
  if (usage) reply.usage = usage;
  return reply;
}
