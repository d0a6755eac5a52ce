import type { CacheControl, FilePart, Part, TextPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { guessMediaType } from '../../files/guess-media-type.js';
import { parseDataUrl } from '../data-url.js';
import { fieldError, requireString } from '../invalid-request-error.js';
import { asArray, isJsonObject, asString, type JsonObject } from '../wire-json.js';
import { PROTOCOL, rawContent, type TextPartDetail } from './responses-extensions.js';

/**
 * One content part of a Responses message or function call output
 * (https://platform.openai.com/docs/api-reference/responses/create#responses-create-input):
 * `input_text`, `output_text`, `refusal`, `input_image`, `input_file`; anything else travels whole
 * as a raw part. `item` is the detail of the message item the part belongs to.
 */
export function decodeContentPart(options: {
  part: unknown;
  path: string;
  losses: LossLog;
  item?: JsonObject;
}): Part {
  const { part, path, losses, item } = options;
  if (!isJsonObject(part)) throw fieldError({ field: path, value: part, expected: 'an object' });
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return textPart({
        text: requireString(part.text, `${path}.text`),
        cacheControl: cacheControlOf(part),
        detail: {
          ...(item && { item }),
          ...(nonEmpty(part.annotations) && { annotations: asArray(part.annotations) }),
          ...(nonEmpty(part.logprobs) && { logprobs: asArray(part.logprobs) }),
        },
      });
    case 'refusal':
      return textPart({
        text: requireString(part.refusal, `${path}.refusal`),
        cacheControl: undefined,
        detail: { ...(item && { item }), refusal: true },
      });
    case 'input_image':
      return decodeImage(part, path, losses);
    case 'input_file':
      return decodeFile(part, path);
    default:
      return rawContent(part);
  }
}

function textPart(options: {
  text: string;
  cacheControl: CacheControl | undefined;
  detail: TextPartDetail;
}): TextPart {
  const part: TextPart = { type: 'text', text: options.text };
  if (options.cacheControl) part.cacheControl = options.cacheControl;
  if (Object.keys(options.detail).length > 0) part.extensions = { [PROTOCOL]: options.detail };
  return part;
}

function decodeImage(part: JsonObject, path: string, losses: LossLog): FilePart {
  const detail = decodeDetail(part.detail, `${path}.detail`, losses) ?? 'auto';
  const url = asString(part.image_url);
  const fileId = asString(part.file_id);
  let file: FilePart;
  if (url !== undefined) {
    const inline = parseDataUrl(url);
    file = inline
      ? { type: 'file', mediaType: inline.mediaType, source: { kind: 'base64', data: inline.data } }
      : { type: 'file', mediaType: guessMediaType(url) ?? 'image/*', source: { kind: 'url', url } };
  } else if (fileId !== undefined) {
    file = { type: 'file', mediaType: 'image/*', source: { kind: 'file-id', fileId } };
  } else {
    throw new GatewayError('field_required', { field: `${path}.image_url` });
  }
  file.detail = detail;
  const cacheControl = cacheControlOf(part);
  if (cacheControl) file.cacheControl = cacheControl;
  return file;
}

function decodeFile(part: JsonObject, path: string): FilePart {
  const filename = asString(part.filename);
  const data = asString(part.file_data);
  const url = asString(part.file_url);
  const fileId = asString(part.file_id);
  let file: FilePart;
  if (data !== undefined) {
    const inline = parseDataUrl(data);
    file = inline
      ? { type: 'file', mediaType: inline.mediaType, source: { kind: 'base64', data: inline.data } }
      : {
          type: 'file',
          mediaType: guessMediaType(filename) ?? 'application/pdf',
          source: { kind: 'base64', data },
        };
  } else if (url !== undefined) {
    file = {
      type: 'file',
      mediaType: guessMediaType(filename ?? url) ?? 'application/pdf',
      source: { kind: 'url', url },
    };
  } else if (fileId !== undefined) {
    file = {
      type: 'file',
      mediaType: guessMediaType(filename) ?? 'application/octet-stream',
      source: { kind: 'file-id', fileId },
    };
  } else {
    throw new GatewayError('field_required', { field: `${path}.file_data` });
  }
  if (filename !== undefined) file.filename = filename;
  if (part.detail === 'auto' || part.detail === 'low' || part.detail === 'high') file.detail = part.detail;
  const cacheControl = cacheControlOf(part);
  if (cacheControl) file.cacheControl = cacheControl;
  return file;
}

/** Image `detail`; a missing one is the API's default `auto`. */
function decodeDetail(value: unknown, path: string, losses: LossLog): FilePart['detail'] {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'low' || value === 'high') return value;
  if (value === 'original') {
    losses.coerced(path, 'image detail "original" has no canonical form; "high" is the closest');
    return 'high';
  }
  losses.coerced(path, `unknown image detail ${JSON.stringify(value)}; "auto" is used`);
  return undefined;
}

/** `prompt_cache_breakpoint` is the Responses form of a prompt-cache marker. */
function cacheControlOf(part: JsonObject): CacheControl | undefined {
  return isJsonObject(part.prompt_cache_breakpoint) ? { type: 'ephemeral' } : undefined;
}

function nonEmpty(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}
