/**
 * Imagen's `predict` request as the Gemini API takes it
 * (https://ai.google.dev/gemini-api/docs/imagen, REST tab), member by member as @google/genai's
 * `generateImagesParametersToMldev` and `generateImagesConfigToMldev` write a `GenerateImagesConfig`
 * (the SDK's Gemini API converters up to 1.x; 2.x sends `generateImages` to Vertex AI only).
 */

/** `GenerateImagesConfig.aspectRatio`: "Supported values are "1:1", "3:4", "4:3", "9:16", and "16:9"." */
export type ImagenAspectRatio = '1:1' | '3:4' | '4:3' | '9:16' | '16:9';

/** `GenerateImagesConfig.imageSize`: the longer side, "1K" or "2K" (not for Imagen 3 models). */
export type ImagenImageSize = '1K' | '2K';

/** `PersonGeneration` in @google/genai. */
export type ImagenPersonGeneration = 'DONT_ALLOW' | 'ALLOW_ADULT' | 'ALLOW_ALL';

export interface ImagenParameters {
  /** `numberOfImages`; the Gemini API generates 4 when it is absent. */
  sampleCount: number;
  aspectRatio?: ImagenAspectRatio;
  /** `imageSize` */
  sampleImageSize?: ImagenImageSize;
  personGeneration?: ImagenPersonGeneration;
  /** Filtered images come back as entries that say why, rather than not at all. */
  includeRaiReason?: boolean;
  /** `outputMimeType` and `outputCompressionQuality` (JPEG only). */
  outputOptions?: { mimeType?: 'image/png' | 'image/jpeg'; compressionQuality?: number };
}

export interface ImagenPredictRequest {
  instances: [{ prompt: string }];
  parameters: ImagenParameters;
}
