import type { CacheControl, FilePart, Part, TextPart } from '../../ir/content.js';
import { guessMediaType } from '../../files/guess-media-type.js';
import { parseDataUrl } from '../data-url.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { isJsonObject, asString, type JsonObject } from '../wire-json.js';
import { rawPart } from './openai-chat-extension.js';

/** What decoding content notices on the way, for the request extension. */
export interface ContentDecodeState {
  /** Some part carried a `prompt_cache_breakpoint`. */
  breakpoints: boolean;
}

/**
 * A message's `content`: a string, or an array of content parts
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages).
 */
export function decodeContent(content: unknown, path: string, state: ContentDecodeState): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content))
    throw new InvalidRequestError(path, 'must be a string or an array of content parts');
  return content.map((part, index) => decodeContentPart(part, `${path}[${index}]`, state));
}

/** One content part: text, image_url, input_audio, file; refusal and unknown types stay raw. */
export function decodeContentPart(part: unknown, path: string, state: ContentDecodeState): Part {
  if (!isJsonObject(part) || typeof part.type !== 'string')
    throw new InvalidRequestError(path, 'must be a content part object with a type');
  switch (part.type) {
    case 'text':
      return withCacheControl(decodeText(part, path), part, state);
    case 'image_url':
      return withCacheControl(decodeImage(part, path), part, state);
    case 'input_audio':
      return withCacheControl(decodeAudio(part, path), part, state);
    case 'file':
      return withCacheControl(decodeFile(part, path), part, state);
    default:
      return rawPart({ contentPart: part });
  }
}

function decodeText(part: JsonObject, path: string): TextPart {
  if (typeof part.text !== 'string') throw new InvalidRequestError(`${path}.text`, 'must be a string');
  return { type: 'text', text: part.text };
}

/** https://platform.openai.com/docs/guides/images-vision: a link, or the image inline as a data URL. */
function decodeImage(part: JsonObject, path: string): FilePart {
  const image = part.image_url;
  if (!isJsonObject(image) || typeof image.url !== 'string')
    throw new InvalidRequestError(`${path}.image_url.url`, 'must be a string');
  const detail = image.detail;
  if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high')
    throw new InvalidRequestError(`${path}.image_url.detail`, "must be 'auto', 'low' or 'high'");
  const inline = parseDataUrl(image.url);
  return {
    type: 'file',
    mediaType: inline?.mediaType ?? 'image/*',
    source: inline ? { kind: 'base64', data: inline.data } : { kind: 'url', url: image.url },
    ...(detail && { detail }),
  };
}

/** https://platform.openai.com/docs/guides/audio: base64 data with a `wav` or `mp3` format. */
function decodeAudio(part: JsonObject, path: string): FilePart {
  const audio = part.input_audio;
  if (!isJsonObject(audio) || typeof audio.data !== 'string' || typeof audio.format !== 'string')
    throw new InvalidRequestError(`${path}.input_audio`, 'must have string data and format');
  return {
    type: 'file',
    mediaType: audioMediaType(audio.format),
    source: { kind: 'base64', data: audio.data },
  };
}

/**
 * https://platform.openai.com/docs/guides/pdf-files: an uploaded file id, or the file inline in
 * `file_data` (a data URL; bare base64 is accepted too). Chat completions takes PDFs here, so a
 * file whose type neither the data URL nor the name tells is taken for a PDF.
 */
function decodeFile(part: JsonObject, path: string): FilePart {
  const file = part.file;
  if (!isJsonObject(file)) throw new InvalidRequestError(`${path}.file`, 'must be an object');
  const filename = asString(file.filename);
  const named = filename ? guessMediaType(filename) : undefined;
  const common = { type: 'file' as const, ...(filename !== undefined && { filename }) };
  if (typeof file.file_data === 'string') {
    const inline = parseDataUrl(file.file_data);
    return {
      ...common,
      mediaType: inline?.mediaType ?? named ?? 'application/pdf',
      source: { kind: 'base64', data: inline?.data ?? file.file_data },
    };
  }
  if (typeof file.file_id === 'string')
    return {
      ...common,
      mediaType: named ?? 'application/pdf',
      source: { kind: 'file-id', fileId: file.file_id },
    };
  throw new InvalidRequestError(`${path}.file`, 'must have file_data or file_id');
}

/** `prompt_cache_breakpoint` marks the end of a reusable prefix, like Anthropic's `cache_control`. */
function withCacheControl<T extends TextPart | FilePart>(
  decoded: T,
  part: JsonObject,
  state: ContentDecodeState,
): T {
  if (!isJsonObject(part.prompt_cache_breakpoint)) return decoded;
  state.breakpoints = true;
  const cacheControl: CacheControl = { type: 'ephemeral' };
  return { ...decoded, cacheControl };
}

export function audioMediaType(format: string): string {
  switch (format) {
    case 'wav':
      return 'audio/wav';
    case 'mp3':
      return 'audio/mpeg';
    default:
      return `audio/${format}`;
  }
}
