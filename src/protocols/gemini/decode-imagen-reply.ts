import type { GeneratedImage, ImageGenerationReply } from '../../ir/image-generation.js';
import type { LossLog } from '../../ir/loss.js';
import { imagenPredictResponseSchema } from './imagen-wire-schemas.js';

/**
 * Imagen's `predict` reply (https://ai.google.dev/gemini-api/docs/imagen) in the canonical form:
 * one image per prediction with bytes, its media type, and the rewritten prompt where Imagen gives
 * one. A prediction the safety filter withheld (`raiFilteredReason`) or one without bytes is no
 * image, and is recorded as dropped. Imagen reports no usage and no creation time.
 */
export function decodeImagenReply(body: unknown, losses: LossLog): ImageGenerationReply {
  const parsed = imagenPredictResponseSchema.safeParse(body);
  const predictions = parsed.success ? (parsed.data.predictions ?? []) : [];
  const images: GeneratedImage[] = [];
  for (const [index, prediction] of predictions.entries()) {
    const path = `predictions[${index}]`;
    if (prediction?.bytesBase64Encoded === undefined) {
      const reason = prediction?.raiFilteredReason;
      losses.dropped(path, reason === undefined ? 'no image data' : `filtered by Imagen: ${reason}`);
      continue;
    }
    const image: GeneratedImage = {
      data: {
        kind: 'base64',
        data: prediction.bytesBase64Encoded,
        ...(prediction.mimeType !== undefined && { mediaType: prediction.mimeType }),
      },
    };
    if (prediction.prompt !== undefined) image.revisedPrompt = prediction.prompt;
    images.push(image);
  }
  return { images };
}
