import type { FilePart } from '../../ir/content.js';
import { parseDataUrl } from '../data-url.js';
import type { LossContext } from './loss-context.js';
import { converseFileKindOf } from './map-bedrock-converse-media-format.js';
import type { ConverseFileBlock, ConverseMediaSource } from './wire-types.js';

/** Names for documents that have none, numbered across one request. */
export class DocumentNames {
  private count = 0;

  next(): string {
    this.count += 1;
    return `document-${this.count}`;
  }
}

export interface FileContext extends LossContext {
  documentNames: DocumentNames;
}

/**
 * `DocumentBlock.name`: "alphanumeric characters, whitespace characters, hyphens, parentheses, and
 * square brackets", no two whitespace characters in a row
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html).
 */
const NAME_UNSAFE = /[^A-Za-z0-9\s\-()[\]]+/g;

/**
 * A file part -> an `image`, `document` or `video` block
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html). Converse
 * takes files as base64 bytes or as S3 objects (`s3://` links); the relay has downloaded other links
 * before encoding. Types Converse has no format for, other links and other vendors' file ids are
 * dropped with a loss.
 */
export function encodeFileBlock(part: FilePart, context: FileContext): ConverseFileBlock | undefined {
  const { path, losses } = context;
  const inline = part.source.kind === 'url' ? parseDataUrl(part.source.url) : undefined;
  const mediaType =
    inline && (part.mediaType.endsWith('/*') || part.mediaType === '') ? inline.mediaType : part.mediaType;
  let source: ConverseMediaSource;
  let data: string | undefined;
  if (inline) {
    data = inline.data;
    source = { bytes: inline.data };
  } else if (part.source.kind === 'base64') {
    data = part.source.data;
    source = { bytes: part.source.data };
  } else if (part.source.kind === 'url' && part.source.url.startsWith('s3://')) {
    source = { s3Location: { uri: part.source.url } };
  } else {
    losses.dropped(
      path,
      part.source.kind === 'file-id'
        ? 'Converse cannot read another vendor’s uploaded-file id'
        : 'Converse reads files as bytes or S3 objects, not links',
    );
    return undefined;
  }
  const kind = converseFileKindOf(mediaType, data);
  if (!kind) {
    losses.dropped(path, `Converse has no block for ${mediaType}`);
    return undefined;
  }
  if (part.detail !== undefined) losses.dropped(`${path}.detail`, 'Converse has no image detail setting');
  switch (kind.kind) {
    case 'image':
      if (mediaType.endsWith('/*'))
        losses.coerced(`${path}.mediaType`, `sent as ${kind.format}, read from the data`);
      if (part.filename !== undefined) losses.dropped(`${path}.filename`, 'Converse images have no name');
      return { image: { format: kind.format, source } };
    case 'video':
      if (part.filename !== undefined) losses.dropped(`${path}.filename`, 'Converse videos have no name');
      return { video: { format: kind.format, source } };
    case 'document':
      return { document: { format: kind.format, name: documentName(part.filename, context), source } };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

function documentName(filename: string | undefined, context: FileContext): string {
  if (filename === undefined) return context.documentNames.next();
  const name = filename
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(NAME_UNSAFE, '-')
    .replace(/\s+/g, ' ')
    .trim();
  if (name.length === 0) {
    context.losses.coerced(
      `${context.path}.filename`,
      `document name ${filename} has no character Converse accepts`,
    );
    return context.documentNames.next();
  }
  if (name !== filename)
    context.losses.coerced(`${context.path}.filename`, `document name ${filename} sent as ${name}`);
  return name;
}
