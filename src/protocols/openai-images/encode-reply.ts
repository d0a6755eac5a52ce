import type { ImageDelivery, ImageGenerationReply } from '../../ir/image-generation.js';
import type { LossLog } from '../../ir/loss.js';
import type { OpenAIImagesImage, OpenAIImagesResponse } from './wire-types.js';

/** Media types OpenAI names in `output_format`. */
const outputFormats: Record<string, OpenAIImagesResponse['output_format']> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
};

/**
 * Canonical images as an `ImagesResponse` (https://platform.openai.com/docs/api-reference/images/object):
 * each image as `b64_json` or `url`, as it came, with its revised prompt. A client that asked for
 * links (`response_format: "url"`) of images that came as bytes gets the bytes: the gateway keeps
 * no files to link to, and the coercion is recorded. `output_format` is written when every image
 * has the same known media type; `created` falls back to `now` (Unix seconds).
 */
export function encodeOpenAIImagesReply(
  reply: ImageGenerationReply,
  options: { losses: LossLog; delivery: ImageDelivery | undefined; now: number },
): OpenAIImagesResponse {
  const { losses } = options;
  let coercedToBase64 = false;
  const data = reply.images.map((image): OpenAIImagesImage => {
    const entry: OpenAIImagesImage =
      image.data.kind === 'url' ? { url: image.data.url } : { b64_json: image.data.data };
    if (image.data.kind === 'base64' && options.delivery === 'url') coercedToBase64 = true;
    if (image.revisedPrompt !== undefined) entry.revised_prompt = image.revisedPrompt;
    return entry;
  });
  if (coercedToBase64)
    losses.coerced(
      'response_format',
      'the upstream returned image bytes and the gateway stores no files to link to: answered with b64_json',
    );

  const response: OpenAIImagesResponse = { created: reply.created ?? options.now, data };
  const kinds = new Set(
    reply.images.map((image) => (image.data.kind === 'base64' ? image.data.mediaType : undefined)),
  );
  const [only] = kinds;
  const outputFormat = kinds.size === 1 && only !== undefined ? outputFormats[only] : undefined;
  if (outputFormat) response.output_format = outputFormat;
  return response;
}
