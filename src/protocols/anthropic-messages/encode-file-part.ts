import type { FilePart } from '../../ir/content.js';
import { encodeCacheControl } from './encode-cache-control.js';
import type { LossContext } from './loss-context.js';
import type {
  AnthropicDocumentBlock,
  AnthropicDocumentSource,
  AnthropicFileBlock,
  AnthropicImageBlock,
  AnthropicImageSource,
} from './wire-types.js';

type ImageMediaType = Extract<AnthropicImageSource, { type: 'base64' }>['media_type'];

/** Image media types Anthropic accepts inline (https://docs.anthropic.com/en/docs/build-with-claude/vision). */
const IMAGE_MEDIA_TYPES: readonly ImageMediaType[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** Leading base64 characters of each accepted image format's magic bytes. */
const IMAGE_SIGNATURES: readonly [prefix: string, mediaType: ImageMediaType][] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

/**
 * A file part -> an `image` or `document` block (https://docs.anthropic.com/en/api/messages#body-messages-content):
 * images by base64, link or file id; PDFs by base64, link or file id; plain text as a text document.
 * Anything else has no Anthropic block and is dropped with a loss.
 */
export function encodeFilePart(part: FilePart, context: LossContext): AnthropicFileBlock | undefined {
  const { path, losses } = context;
  const block = part.mediaType.startsWith('image/')
    ? encodeImage(part, context)
    : encodeDocument(part, context);
  if (!block) return undefined;
  if (part.detail !== undefined) losses.dropped(`${path}.detail`, 'Anthropic has no image detail setting');
  const cacheControl = encodeCacheControl(part.cacheControl);
  if (cacheControl) block.cache_control = cacheControl;
  return block;
}

type Source = { mediaType: string; source: FilePart['source'] };

/** A `data:` URL is inline data, whatever its container said. */
function inlineDataUrl(part: FilePart): Source {
  if (part.source.kind === 'url') {
    const match = DATA_URL.exec(part.source.url);
    if (match)
      return { mediaType: match[1] ?? part.mediaType, source: { kind: 'base64', data: match[2] ?? '' } };
  }
  return { mediaType: part.mediaType, source: part.source };
}

function encodeImage(part: FilePart, { path, losses }: LossContext): AnthropicImageBlock | undefined {
  const { mediaType, source } = inlineDataUrl(part);
  if (part.filename !== undefined) losses.dropped(`${path}.filename`, 'Anthropic images have no file name');
  switch (source.kind) {
    case 'url':
      return { type: 'image', source: { type: 'url', url: source.url } };
    case 'file-id':
      return { type: 'image', source: { type: 'file', file_id: source.fileId } };
    case 'base64': {
      let media = IMAGE_MEDIA_TYPES.find((type) => type === mediaType);
      if (!media) {
        const sniffed = IMAGE_SIGNATURES.find(([prefix]) => source.data.startsWith(prefix))?.[1];
        if (!sniffed) {
          losses.dropped(path, `image type ${mediaType} is not accepted by Anthropic (jpeg, png, gif, webp)`);
          return undefined;
        }
        losses.coerced(`${path}.mediaType`, `image type ${mediaType} sent as ${sniffed}, read from the data`);
        media = sniffed;
      }
      return { type: 'image', source: { type: 'base64', media_type: media, data: source.data } };
    }
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}

/** https://docs.anthropic.com/en/docs/build-with-claude/pdf-support */
function encodeDocument(part: FilePart, { path, losses }: LossContext): AnthropicDocumentBlock | undefined {
  const { mediaType, source } = inlineDataUrl(part);
  let wireSource: AnthropicDocumentSource | undefined;
  switch (source.kind) {
    case 'file-id':
      wireSource = { type: 'file', file_id: source.fileId };
      break;
    case 'url':
      if (mediaType === 'application/pdf') wireSource = { type: 'url', url: source.url };
      break;
    case 'base64':
      if (mediaType === 'application/pdf')
        wireSource = { type: 'base64', media_type: 'application/pdf', data: source.data };
      else if (mediaType === 'text/plain')
        wireSource = {
          type: 'text',
          media_type: 'text/plain',
          data: Buffer.from(source.data, 'base64').toString('utf8'),
        };
      break;
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
  if (!wireSource) {
    losses.dropped(
      path,
      `no Anthropic block for ${mediaType} by ${source.kind} (documents are PDF or plain text)`,
    );
    return undefined;
  }
  const block: AnthropicDocumentBlock = { type: 'document', source: wireSource };
  if (part.filename !== undefined) block.title = part.filename;
  return block;
}
