import type { ConverseDocumentFormat, ConverseImageFormat, ConverseVideoFormat } from './wire-types.js';

/**
 * Converse file formats and the IANA media types they stand for: `ImageBlock.format`,
 * `DocumentBlock.format`, `VideoBlock.format`
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html,
 * .../API_runtime_DocumentBlock.html, .../API_runtime_VideoBlock.html).
 */
export const IMAGE_MEDIA_TYPES: Record<ConverseImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const DOCUMENT_MEDIA_TYPES: Record<ConverseDocumentFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

export const VIDEO_MEDIA_TYPES: Record<ConverseVideoFormat, string> = {
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  mp4: 'video/mp4',
  webm: 'video/webm',
  flv: 'video/x-flv',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  wmv: 'video/x-ms-wmv',
  three_gp: 'video/3gpp',
};

/** Other spellings of the same types, as clients write them. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'text/x-markdown': 'text/markdown',
  'application/csv': 'text/csv',
  'video/mpg': 'video/mpeg',
};

/** Leading base64 characters of each image format's magic bytes, for data typed only `image/*`. */
const IMAGE_SIGNATURES: readonly [prefix: string, format: ConverseImageFormat][] = [
  ['iVBORw0KGgo', 'png'],
  ['/9j/', 'jpeg'],
  ['R0lGOD', 'gif'],
  ['UklGR', 'webp'],
];

export type ConverseFileKind =
  | { kind: 'image'; format: ConverseImageFormat }
  | { kind: 'document'; format: ConverseDocumentFormat }
  | { kind: 'video'; format: ConverseVideoFormat };

/** The Converse block a media type goes in, or undefined when Converse has none for it. */
export function converseFileKindOf(mediaType: string, data?: string): ConverseFileKind | undefined {
  const type = ALIASES[mediaType.toLowerCase()] ?? mediaType.toLowerCase();
  const image = formatOf(IMAGE_MEDIA_TYPES, type);
  if (image) return { kind: 'image', format: image };
  if (type === 'image/*' && data !== undefined) {
    const sniffed = IMAGE_SIGNATURES.find(([prefix]) => data.startsWith(prefix))?.[1];
    if (sniffed) return { kind: 'image', format: sniffed };
  }
  const document = formatOf(DOCUMENT_MEDIA_TYPES, type);
  if (document) return { kind: 'document', format: document };
  const video = formatOf(VIDEO_MEDIA_TYPES, type);
  if (video) return { kind: 'video', format: video };
  return undefined;
}

function formatOf<Format extends string>(
  table: Record<Format, string>,
  mediaType: string,
): Format | undefined {
  return (Object.keys(table) as Format[]).find((format) => table[format] === mediaType);
}

export function isImageFormat(value: unknown): value is ConverseImageFormat {
  return typeof value === 'string' && Object.hasOwn(IMAGE_MEDIA_TYPES, value);
}

export function isDocumentFormat(value: unknown): value is ConverseDocumentFormat {
  return typeof value === 'string' && Object.hasOwn(DOCUMENT_MEDIA_TYPES, value);
}

export function isVideoFormat(value: unknown): value is ConverseVideoFormat {
  return typeof value === 'string' && Object.hasOwn(VIDEO_MEDIA_TYPES, value);
}
