import type { Usage } from './usage.js';

/**
 * Image generation in the canonical form: what a text-to-image request asks for and what comes
 * back, in terms no single vendor owns. Each protocol decodes into it and encodes out of it
 * (DESIGN principle 1); what a protocol cannot carry is recorded as a loss by its encoder.
 */

/** The picture's dimensions: exact pixels, or the model's own choice. */
export type ImageSize = { kind: 'auto' } | { kind: 'pixels'; width: number; height: number };

/** Whether the model may depict people, and which. */
export type PersonGeneration = 'none' | 'adults' | 'everyone';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** How the client wants the images handed back: inline bytes, or links to them. */
export type ImageDelivery = 'base64' | 'url';

export interface ImageGenerationRequest {
  prompt: string;
  /** Images asked for. */
  count: number;
  size?: ImageSize;
  /** What the images should not show. */
  negativePrompt?: string;
  personGeneration?: PersonGeneration;
  outputFormat?: ImageFormat;
  /** Compression level, 0 to 100, for lossy formats. */
  outputCompression?: number;
  /** Undefined: the protocol's default. */
  delivery?: ImageDelivery;
  /**
   * Members of one protocol without a canonical place (OpenAI's `quality` or `style`), keyed by
   * protocol, so a same-protocol encoder can write them back and any other records them as lost.
   */
  extensions: Record<string, Record<string, unknown>>;
}

export type ImageData = { kind: 'base64'; data: string; mediaType?: string } | { kind: 'url'; url: string };

export interface GeneratedImage {
  data: ImageData;
  /** The prompt the model actually drew from, where it rewrote the client's. */
  revisedPrompt?: string;
}

export interface ImageGenerationReply {
  /** Unix seconds; undefined when the upstream did not say. */
  created?: number;
  images: GeneratedImage[];
  /** Token usage where the upstream reports it; image models billed per image report none. */
  usage?: Usage;
}
