import type { ImageSize } from '../../ir/image-generation.js';
import type { ImagenAspectRatio, ImagenImageSize } from './imagen-wire-types.js';

/**
 * The pixels Imagen draws at "1K" for each aspect ratio (https://cloud.google.com/vertex-ai/generative-ai/docs/models/imagen/3-0-generate-002,
 * "Aspect ratios and resolutions"); "2K" doubles both sides
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/models/imagen/4-0-generate-001).
 */
const ASPECT_RATIOS: readonly { ratio: ImagenAspectRatio; width: number; height: number }[] = [
  { ratio: '1:1', width: 1024, height: 1024 },
  { ratio: '3:4', width: 896, height: 1280 },
  { ratio: '4:3', width: 1280, height: 896 },
  { ratio: '9:16', width: 768, height: 1408 },
  { ratio: '16:9', width: 1408, height: 768 },
];

export interface ImagenSize {
  aspectRatio: ImagenAspectRatio;
  imageSize: ImagenImageSize;
  /** The pixels Imagen will draw, and whether they are exactly the ones asked for. */
  width: number;
  height: number;
  exact: boolean;
}

/**
 * An exact size as Imagen's nearest aspect ratio (by the ratio's logarithm, so wide and tall
 * misses weigh alike) and the size tier whose longer side is nearest to the one asked for.
 * Undefined for `auto`: Imagen then uses its defaults (1:1 at 1K).
 */
export function mapImagenSize(size: ImageSize): ImagenSize | undefined {
  if (size.kind === 'auto') return undefined;
  const wanted = Math.log(size.width / size.height);
  let best = ASPECT_RATIOS[0]!;
  for (const candidate of ASPECT_RATIOS) {
    const distance = Math.abs(Math.log(candidate.width / candidate.height) - wanted);
    if (distance < Math.abs(Math.log(best.width / best.height) - wanted)) best = candidate;
  }
  const longer = Math.max(size.width, size.height);
  const longer1K = Math.max(best.width, best.height);
  const imageSize: ImagenImageSize =
    Math.abs(longer - 2 * longer1K) < Math.abs(longer - longer1K) ? '2K' : '1K';
  const scale = imageSize === '2K' ? 2 : 1;
  const width = best.width * scale;
  const height = best.height * scale;
  return {
    aspectRatio: best.ratio,
    imageSize,
    width,
    height,
    exact: width === size.width && height === size.height,
  };
}
