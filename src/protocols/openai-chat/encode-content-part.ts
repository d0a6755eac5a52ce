import type { FilePart, Part, TextPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { formatDataUrl } from '../data-url.js';
import type {
  OpenAIChatContentPart,
  OpenAIChatKept,
  OpenAIChatPromptCacheBreakpoint,
  OpenAIChatTextPart,
} from './wire-types.js';

export interface ContentEncodeContext {
  losses: LossLog;
  /** Write cache markers as `prompt_cache_breakpoint` (the request came with them from a chat client). */
  breakpoints: boolean;
}

/**
 * A text or file part as a chat completions content part
 * (https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages-user-message-content);
 * undefined, with the loss recorded, when chat completions cannot carry it.
 */
export function encodeContentPart(
  part: TextPart | FilePart,
  path: string,
  context: ContentEncodeContext,
): OpenAIChatContentPart | undefined {
  if (part.type === 'text') return encodeTextPart(part, path, context);
  const encoded = encodeFile(part, path, context.losses);
  if (!encoded) return undefined;
  return { ...encoded, ...cacheBreakpoint(part, path, context) };
}

/** A text part, which chat completions always carries. */
export function encodeTextPart(
  part: TextPart,
  path: string,
  context: ContentEncodeContext,
): OpenAIChatTextPart {
  return { type: 'text', text: part.text, ...cacheBreakpoint(part, path, context) };
}

/**
 * Images go as `image_url` (a link, or a data URL), audio as `input_audio` (wav, mp3), other files
 * and named images as `file` (inline data URL or uploaded file id).
 */
function encodeFile(part: FilePart, path: string, losses: LossLog): OpenAIChatContentPart | undefined {
  const { source } = part;
  if (part.mediaType.startsWith('audio/')) {
    const format = audioFormat(part.mediaType);
    if (source.kind !== 'base64' || !format) {
      losses.dropped(
        path,
        `chat completions takes audio only as inline wav or mp3 data, not ${part.mediaType} by ${source.kind}`,
      );
      return undefined;
    }
    return { type: 'input_audio', input_audio: { data: source.data, format } };
  }
  const image = part.mediaType.startsWith('image/');
  if (image && (source.kind === 'url' || (source.kind === 'base64' && part.filename === undefined))) {
    if (part.filename !== undefined) losses.dropped(`${path}.filename`, 'image_url has no file name');
    const url =
      source.kind === 'url' ? source.url : formatDataUrl({ mediaType: part.mediaType, data: source.data });
    return { type: 'image_url', image_url: { url, ...(part.detail && { detail: part.detail }) } };
  }
  if (part.detail) losses.dropped(`${path}.detail`, 'only image_url parts have a detail level');
  const filename = part.filename !== undefined ? { filename: part.filename } : {};
  switch (source.kind) {
    case 'base64':
      return {
        type: 'file',
        file: { ...filename, file_data: formatDataUrl({ mediaType: part.mediaType, data: source.data }) },
      };
    case 'file-id':
      return { type: 'file', file: { ...filename, file_id: source.fileId } };
    case 'url':
      losses.dropped(
        path,
        `chat completions takes ${part.mediaType} files only inline or by file id, not by link`,
      );
      return undefined;
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}

function audioFormat(mediaType: string): 'wav' | 'mp3' | undefined {
  switch (mediaType) {
    case 'audio/wav':
    case 'audio/x-wav':
    case 'audio/wave':
      return 'wav';
    case 'audio/mpeg':
    case 'audio/mp3':
      return 'mp3';
    default:
      return undefined;
  }
}

/**
 * A cache marker becomes `prompt_cache_breakpoint` only when the client itself wrote them in chat
 * completions form: OpenAI caches prefixes on its own, and OpenAI-compatible vendors with strict
 * schemas reject the unknown key, so markers from other protocols are dropped (recorded).
 */
function cacheBreakpoint(
  part: TextPart | FilePart,
  path: string,
  context: ContentEncodeContext,
): { prompt_cache_breakpoint?: OpenAIChatPromptCacheBreakpoint } {
  if (!part.cacheControl) return {};
  if (!context.breakpoints) {
    context.losses.dropped(
      `${path}.cache_control`,
      'chat completions upstreams cache prompt prefixes implicitly',
    );
    return {};
  }
  if (part.cacheControl.ttl)
    context.losses.coerced(
      `${path}.cache_control.ttl`,
      'a breakpoint takes its lifetime from prompt_cache_options.ttl',
    );
  return { prompt_cache_breakpoint: { mode: 'explicit' } };
}

/** A content array of plain text parts collapses to a string when it holds one part. */
export function collapseContent<Encoded extends OpenAIChatContentPart | OpenAIChatKept<'content-part'>>(
  parts: Encoded[],
): string | Encoded[] {
  const [only] = parts;
  if (parts.length === 1 && only && isPlainText(only)) return only.text;
  return parts;
}

/**
 * A text part with nothing beside its text (no breakpoint). Kept parts are never of type `text`:
 * the decoder reads every text part a chat client sends.
 */
export function isPlainText(
  part: OpenAIChatContentPart | OpenAIChatKept<'content-part'>,
): part is OpenAIChatTextPart {
  return part.type === 'text' && Object.keys(part).length === 2;
}

/** Text parts only (system and tool messages); other parts are dropped and recorded. */
export function encodeTextContent(
  parts: readonly Part[],
  path: (index: number) => string,
  context: ContentEncodeContext,
): OpenAIChatTextPart[] {
  const encoded: OpenAIChatTextPart[] = [];
  parts.forEach((part, index) => {
    if (part.type === 'text') encoded.push(encodeTextPart(part, path(index), context));
    else context.losses.dropped(path(index), `this message holds text only, not a ${part.type} part`);
  });
  return encoded;
}
