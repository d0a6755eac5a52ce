import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { asJsonObject, asString, type JsonObject } from '../wire-json.js';
import {
  DOCUMENT_MEDIA_TYPES,
  IMAGE_MEDIA_TYPES,
  isDocumentFormat,
  isImageFormat,
  isVideoFormat,
  VIDEO_MEDIA_TYPES,
} from './map-bedrock-converse-media-format.js';

/**
 * An `image`, `document` or `video` block -> a file part
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html,
 * .../API_runtime_DocumentBlock.html, .../API_runtime_VideoBlock.html). Inline bytes are base64
 * already; an S3 object is a `s3://` link; a document given as text is a file of its format.
 * Undefined when the block has no format or source the gateway can read.
 */
export function decodeConverseFile(
  block: JsonObject,
  context: { path: string; losses: LossLog },
): FilePart | undefined {
  const image = asJsonObject(block.image);
  if (image) {
    if (!isImageFormat(image.format)) return undefined;
    return withSource(
      { mediaType: IMAGE_MEDIA_TYPES[image.format], source: image.source },
      {
        ...context,
        path: `${context.path}.image`,
      },
    );
  }
  const video = asJsonObject(block.video);
  if (video) {
    if (!isVideoFormat(video.format)) return undefined;
    return withSource(
      { mediaType: VIDEO_MEDIA_TYPES[video.format], source: video.source },
      {
        ...context,
        path: `${context.path}.video`,
      },
    );
  }
  const document = asJsonObject(block.document);
  if (!document || !isDocumentFormat(document.format)) return undefined;
  const path = `${context.path}.document`;
  const mediaType = DOCUMENT_MEDIA_TYPES[document.format];
  const source = asJsonObject(document.source);
  const text = asString(source?.text);
  const part =
    text === undefined
      ? withSource({ mediaType, source }, { ...context, path })
      : file(mediaType, { kind: 'base64', data: Buffer.from(text, 'utf8').toString('base64') });
  if (!part) return undefined;
  const name = asString(document.name);
  if (name !== undefined) part.filename = name;
  for (const field of ['context', 'citations'] as const)
    if (document[field] !== undefined && document[field] !== null)
      context.losses.dropped(`${path}.${field}`, `document ${field} has no canonical form`);
  return part;
}

/** A media source: inline bytes (base64 already), or an S3 object as an `s3://` link. */
function withSource(
  media: { mediaType: string; source: unknown },
  context: { path: string; losses: LossLog },
): FilePart | undefined {
  const { mediaType } = media;
  const source = asJsonObject(media.source);
  const bytes = asString(source?.bytes);
  if (bytes !== undefined) return file(mediaType, { kind: 'base64', data: bytes });
  const s3Location = asJsonObject(source?.s3Location);
  const uri = asString(s3Location?.uri);
  if (uri === undefined) return undefined;
  if (s3Location?.bucketOwner !== undefined)
    context.losses.dropped(
      `${context.path}.source.s3Location.bucketOwner`,
      'an S3 bucket owner has no canonical form',
    );
  return file(mediaType, { kind: 'url', url: uri });
}

function file(mediaType: string, source: FilePart['source']): FilePart {
  return { type: 'file', mediaType, source };
}
