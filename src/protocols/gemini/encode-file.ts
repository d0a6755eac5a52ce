import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { GeminiFilePart } from './wire-types.js';

/** Leading base64 of common formats, for inline data that only says `image/*`. */
const SIGNATURES: [prefix: string, mediaType: string][] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
  ['JVBERi0', 'application/pdf'],
];

/**
 * A file as `inlineData` (base64) or `fileData` (a link: Gemini file URIs, YouTube; the relay has
 * already downloaded other links), https://ai.google.dev/api/caching#Part. An uploaded-file id of
 * another vendor means nothing to Gemini and is dropped. Returns undefined when nothing is sent.
 */
export function encodeGeminiFile(file: FilePart, path: string, losses: LossLog): GeminiFilePart | undefined {
  if (file.cacheControl) losses.dropped(`${path}.cacheControl`, 'Gemini has no prompt-cache markers');
  if (file.detail !== undefined && file.detail !== 'auto')
    losses.dropped(`${path}.detail`, 'Gemini has no image detail setting per part');
  const displayName = file.filename === undefined ? {} : { displayName: file.filename };
  switch (file.source.kind) {
    case 'base64': {
      const mimeType = file.mediaType.includes('*')
        ? sniff(file.source.data, file.mediaType)
        : file.mediaType;
      if (mimeType !== file.mediaType)
        losses.coerced(`${path}.mediaType`, `sent as ${mimeType}, read from the data`);
      return { inlineData: { mimeType, data: file.source.data, ...displayName } };
    }
    case 'url': {
      // `mimeType` is optional for links; a wildcard type would be refused.
      const mimeType = file.mediaType.includes('*') ? {} : { mimeType: file.mediaType };
      return { fileData: { ...mimeType, fileUri: file.source.url, ...displayName } };
    }
    case 'file-id':
      losses.dropped(path, 'Gemini cannot read another vendor’s uploaded-file id');
      return undefined;
    default: {
      const unhandled: never = file.source;
      return unhandled;
    }
  }
}

function sniff(data: string, fallback: string): string {
  return SIGNATURES.find(([prefix]) => data.startsWith(prefix))?.[1] ?? fallback;
}
