import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { parseDataUrl } from '../data-url.js';
import { isJsonObject } from '../wire-json.js';
import type { OpenAIChatWireGeneratedImage } from './wire-schemas.js';

/** Members of an `images` entry that the file part holds; `index` only numbers entries in a stream. */
const entryKeys = new Set(['type', 'image_url', 'index']);

/**
 * The images a model generated, as OpenRouter-style upstreams carry them in `message.images` or a
 * chunk's `delta.images` (https://openrouter.ai/docs/features/multimodal/image-generation):
 * `{type: 'image_url', image_url: {url}}`. A data URL becomes a base64 file of its media type, any
 * other link a linked file of type `image/*` (as a chat request's `image_url` does). The reverse of
 * encode-generated-image.ts, and like it for images only: an entry of another kind, without a
 * link, or inlining another media type is dropped, the loss recorded. `entries` went through the
 * lenient schema, where an entry of the wrong shape reads as undefined.
 */
export function decodeGeneratedImages(
  entries: readonly (OpenAIChatWireGeneratedImage | undefined)[] | undefined,
  context: { path: string; losses: LossLog },
): FilePart[] {
  if (!entries) return [];
  return entries.flatMap((entry, position) => {
    const path = `${context.path}[${position}]`;
    const file = entry ? decodeEntry(entry, { path, losses: context.losses }) : undefined;
    if (!entry) context.losses.dropped(path, 'not an image entry');
    return file ? [file] : [];
  });
}

function decodeEntry(
  entry: OpenAIChatWireGeneratedImage,
  context: { path: string; losses: LossLog },
): FilePart | undefined {
  const { path, losses } = context;
  if (entry.type !== undefined && entry.type !== 'image_url') {
    losses.dropped(path, `an images entry of type ${entry.type} has no canonical form`);
    return undefined;
  }
  const link = entry.image_url;
  const url = typeof link === 'string' ? link : link?.url;
  if (url === undefined) {
    losses.dropped(path, 'an images entry without image_url.url');
    return undefined;
  }
  for (const key of Object.keys(entry))
    if (!entryKeys.has(key)) losses.dropped(`${path}.${key}`, 'no canonical place for this images field');
  if (isJsonObject(link))
    for (const key of Object.keys(link))
      if (key !== 'url')
        losses.dropped(`${path}.image_url.${key}`, 'no canonical place for this image field');
  if (!url.startsWith('data:')) return { type: 'file', mediaType: 'image/*', source: { kind: 'url', url } };
  const inline = parseDataUrl(url);
  if (!inline || !inline.mediaType.startsWith('image/')) {
    losses.dropped(`${path}.image_url.url`, 'not a data URL of an image');
    return undefined;
  }
  return { type: 'file', mediaType: inline.mediaType, source: { kind: 'base64', data: inline.data } };
}
