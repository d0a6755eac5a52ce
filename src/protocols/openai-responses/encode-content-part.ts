import type { FilePart, TextPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { formatDataUrl } from '../data-url.js';
import { partDetail } from './responses-extensions.js';
import type {
  ResponsesInputFile,
  ResponsesInputImage,
  ResponsesInputText,
  ResponsesOutputContent,
  ResponsesOutputText,
} from './wire-types.js';

export interface EncodeContext {
  losses: LossLog;
  /** The request came from a Responses client: its own defaults and extension fields apply. */
  sameProtocol: boolean;
}

/** A text part as input content (user, system, developer messages and tool outputs). */
export function encodeInputText(part: TextPart, path: string, context: EncodeContext): ResponsesInputText {
  return withCacheBreakpoint({ type: 'input_text', text: part.text }, part, path, context);
}

/** A text part of an assistant message: `output_text` with its annotations, or a `refusal`. */
export function encodeOutputText(
  part: TextPart,
  path: string,
  context: EncodeContext,
): ResponsesOutputContent {
  const detail = partDetail(part.extensions);
  if (part.cacheControl)
    context.losses.dropped(`${path}.cache_control`, 'Responses has no cache marker on output text');
  if (detail?.refusal === true) return { type: 'refusal', refusal: part.text };
  const content: ResponsesOutputText = {
    type: 'output_text',
    text: part.text,
    annotations: Array.isArray(detail?.annotations) ? detail.annotations : [],
  };
  if (Array.isArray(detail?.logprobs)) content.logprobs = detail.logprobs;
  return content;
}

/**
 * A file as `input_image` (images) or `input_file` (documents), by link, data URL or file id
 * (https://platform.openai.com/docs/guides/images-vision, https://platform.openai.com/docs/guides/pdf-files).
 * Audio and video have no Responses input form: undefined, with the loss recorded.
 */
export function encodeInputFile(
  part: FilePart,
  path: string,
  context: EncodeContext,
): ResponsesInputImage | ResponsesInputFile | undefined {
  const { source } = part;
  if (part.mediaType.startsWith('image/')) {
    const location =
      source.kind === 'url'
        ? { image_url: source.url }
        : source.kind === 'base64'
          ? { image_url: formatDataUrl({ mediaType: part.mediaType, data: source.data }) }
          : { file_id: source.fileId };
    const image: ResponsesInputImage = { type: 'input_image', ...location, detail: part.detail ?? 'auto' };
    if (part.filename !== undefined)
      context.losses.dropped(`${path}.filename`, 'Responses images carry no file name');
    return withCacheBreakpoint(image, part, path, context);
  }
  if (part.mediaType.startsWith('audio/') || part.mediaType.startsWith('video/')) {
    context.losses.dropped(path, `Responses accepts no ${part.mediaType} input`);
    return undefined;
  }
  const file: ResponsesInputFile = { type: 'input_file' };
  if (source.kind === 'url') file.file_url = source.url;
  else if (source.kind === 'base64')
    file.file_data = formatDataUrl({ mediaType: part.mediaType, data: source.data });
  else file.file_id = source.fileId;
  // Inline file data needs a name upstream; a Responses client chose its own.
  const filename =
    part.filename ??
    (source.kind === 'base64' && !context.sameProtocol ? defaultFilename(part.mediaType) : undefined);
  if (filename !== undefined) file.filename = filename;
  if (part.detail !== undefined) file.detail = part.detail;
  return withCacheBreakpoint(file, part, path, context);
}

function withCacheBreakpoint<T extends ResponsesInputText | ResponsesInputImage | ResponsesInputFile>(
  content: T,
  part: TextPart | FilePart,
  path: string,
  context: EncodeContext,
): T {
  if (!part.cacheControl) return content;
  // `prompt_cache_breakpoint` only means something to a client that chose explicit caching itself.
  if (context.sameProtocol) return { ...content, prompt_cache_breakpoint: { mode: 'explicit' } };
  context.losses.dropped(
    `${path}.cache_control`,
    'Responses caches prompts automatically; the cache marker is not sent',
  );
  return content;
}

function defaultFilename(mediaType: string): string {
  const subtype = mediaType.split('/')[1]?.split(/[+;]/)[0];
  return subtype && /^[a-z0-9.-]+$/i.test(subtype) ? `file.${subtype}` : 'file';
}
