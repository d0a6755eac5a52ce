import type { ImageGenerationRequest, PersonGeneration } from '../../ir/image-generation.js';
import type { LossLog } from '../../ir/loss.js';
import type { ImagenParameters, ImagenPersonGeneration, ImagenPredictRequest } from './imagen-wire-types.js';
import { mapImagenSize } from './map-imagen-size.js';

/** `PersonGeneration` in @google/genai; https://ai.google.dev/gemini-api/docs/imagen#imagen-configuration */
const personGenerations: Record<PersonGeneration, ImagenPersonGeneration> = {
  none: 'DONT_ALLOW',
  adults: 'ALLOW_ADULT',
  everyone: 'ALLOW_ALL',
};

/**
 * A canonical image request as the body of Imagen's `predict` on the Gemini API, after
 * `generateImagesConfigToMldev` in @google/genai (see `imagen-wire-types.ts`). The count is always
 * sent: the API's own default is 4 images. What the Gemini API does not take is recorded as lost
 * instead of sent: a negative prompt (the SDK refuses `negativePrompt` for the Gemini API, and the
 * API answers "Setting negativePrompt is no longer supported"), WebP output, and every member of
 * another protocol without a canonical place. A size Imagen cannot draw exactly goes as the
 * nearest aspect ratio and size tier, recorded as coerced.
 */
export function encodeImagenRequest(
  request: ImageGenerationRequest,
  options: { losses: LossLog },
): ImagenPredictRequest {
  const { losses } = options;
  const parameters: ImagenParameters = { sampleCount: request.count, includeRaiReason: true };

  if (request.size) {
    const mapped = mapImagenSize(request.size);
    if (mapped) {
      parameters.aspectRatio = mapped.aspectRatio;
      // "1K" is the default, and Imagen 4 Fast and Imagen 3 take no `imageSize` at all.
      if (mapped.imageSize !== '1K') parameters.sampleImageSize = mapped.imageSize;
      if (!mapped.exact && request.size.kind === 'pixels')
        losses.coerced(
          'size',
          `Imagen draws ${request.size.width}x${request.size.height} as aspect ratio ${mapped.aspectRatio} at ${mapped.imageSize} (${mapped.width}x${mapped.height})`,
        );
    }
  }
  if (request.negativePrompt !== undefined)
    losses.dropped('negative_prompt', 'the Gemini API no longer takes a negative prompt for Imagen');
  if (request.personGeneration) parameters.personGeneration = personGenerations[request.personGeneration];

  const outputOptions: NonNullable<ImagenParameters['outputOptions']> = {};
  switch (request.outputFormat) {
    case undefined:
      break;
    case 'png':
      outputOptions.mimeType = 'image/png';
      break;
    case 'jpeg':
      outputOptions.mimeType = 'image/jpeg';
      break;
    case 'webp':
      losses.dropped('output_format', 'Imagen writes PNG or JPEG only; the image comes as PNG');
      break;
    default: {
      const unreachable: never = request.outputFormat;
      return unreachable;
    }
  }
  if (request.outputCompression !== undefined) {
    // `outputCompressionQuality` is "for image/jpeg only" (GenerateImagesConfig in @google/genai).
    if (outputOptions.mimeType === 'image/jpeg') outputOptions.compressionQuality = request.outputCompression;
    else losses.dropped('output_compression', 'Imagen compresses JPEG output only');
  }
  if (Object.keys(outputOptions).length > 0) parameters.outputOptions = outputOptions;

  for (const members of Object.values(request.extensions))
    for (const name of Object.keys(members)) losses.dropped(name, 'Imagen has no such parameter');

  return { instances: [{ prompt: request.prompt }], parameters };
}
