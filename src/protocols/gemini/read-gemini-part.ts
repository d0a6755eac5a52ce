import type { FilePart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { readIssuedToken } from '../issued-token.js';
import { isPlaceholderSignature } from './placeholder-signatures.js';
import { asString, isJsonObject, type JsonObject } from '../wire-json.js';

/**
 * A `thoughtSignature` as read: Gemini's own, or another vendor's token the gateway gave a Gemini
 * client behind a marker (`anthropic:...`), which goes back to its issuer.
 */
export type GeminiSignature = ReturnType<typeof readIssuedToken>;

/** One wire `Part` (https://ai.google.dev/api/caching#Part), by the kind of data it holds. */
export type GeminiPartView =
  | { kind: 'text'; text: string; thought: boolean; signature: GeminiSignature | undefined }
  | {
      kind: 'file';
      file: FilePart;
      /** An interim draft image of a thinking image model (Gemini 3 Pro Image), not the answer. */
      thought: boolean;
      signature: GeminiSignature | undefined;
    }
  | {
      kind: 'function-call';
      id: string | undefined;
      name: string;
      args: unknown;
      signature: GeminiSignature | undefined;
    }
  | {
      kind: 'function-response';
      id: string | undefined;
      name: string;
      response: JsonObject;
      files: FilePart[];
    }
  | { kind: 'raw'; value: JsonObject }
  | { kind: 'invalid'; problem: string };

const DATA_KEYS = ['text', 'functionCall', 'functionResponse', 'inlineData', 'fileData'];
const MARK_KEYS = ['thought', 'thoughtSignature'];

/**
 * Reads one part. Parts of a kind the canonical form has no part for (`executableCode`,
 * `codeExecutionResult`...) come back whole as `raw`; fields beside the data that the canonical
 * part cannot hold (`videoMetadata`, `mediaResolution`...) are recorded as dropped.
 */
export function readGeminiPart(value: unknown, path: string, losses: LossLog): GeminiPartView {
  if (!isJsonObject(value)) return { kind: 'invalid', problem: 'must be an object' };
  const keys = Object.keys(value);
  const dataKey = DATA_KEYS.find((key) => value[key] !== undefined);
  const unknownKeys = keys.filter((key) => !DATA_KEYS.includes(key) && !MARK_KEYS.includes(key));
  if (dataKey === undefined && unknownKeys.length > 0) return { kind: 'raw', value };
  for (const key of unknownKeys) losses.dropped(`${path}.${key}`, 'no canonical place for this part field');
  const signature = readSignature(value.thoughtSignature, { path: `${path}.thoughtSignature`, losses });

  switch (dataKey) {
    case 'functionCall':
      return readFunctionCall(value.functionCall, { path: `${path}.functionCall`, losses, signature });
    case 'functionResponse':
      return readFunctionResponse(value.functionResponse, `${path}.functionResponse`, losses);
    case 'inlineData':
    case 'fileData': {
      const file = readFile(value, dataKey);
      if (typeof file === 'string') return { kind: 'invalid', problem: file };
      return { kind: 'file', file, thought: value.thought === true, signature };
    }
    case 'text':
    case undefined: {
      const text = value.text ?? '';
      if (typeof text !== 'string') return { kind: 'invalid', problem: 'text must be a string' };
      return { kind: 'text', text, thought: value.thought === true, signature };
    }
    default:
      return { kind: 'raw', value };
  }
}

/**
 * A Gemini signature, or another vendor's marked token. Google's placeholders are no signature:
 * encoding for Gemini adds one again where Gemini requires it.
 */
function readSignature(
  value: unknown,
  context: { path: string; losses: LossLog },
): GeminiSignature | undefined {
  const text = asString(value);
  if (text === undefined) return undefined;
  if (isPlaceholderSignature(text)) {
    context.losses.coerced(context.path, 'a placeholder, not a signature; sent again where Gemini needs one');
    return undefined;
  }
  return readIssuedToken(text, 'gemini');
}

function readFunctionCall(
  value: unknown,
  options: { path: string; losses: LossLog; signature: GeminiSignature | undefined },
): GeminiPartView {
  if (!isJsonObject(value)) return { kind: 'invalid', problem: 'functionCall must be an object' };
  const name = asString(value.name);
  if (!name) return { kind: 'invalid', problem: 'functionCall.name is required' };
  for (const key of Object.keys(value))
    if (!['id', 'name', 'args'].includes(key))
      options.losses.dropped(`${options.path}.${key}`, 'no canonical place for this function call field');
  return {
    kind: 'function-call',
    id: asString(value.id),
    name,
    args: value.args ?? {},
    signature: options.signature,
  };
}

function readFunctionResponse(value: unknown, path: string, losses: LossLog): GeminiPartView {
  if (!isJsonObject(value)) return { kind: 'invalid', problem: 'functionResponse must be an object' };
  const name = asString(value.name);
  if (!name) return { kind: 'invalid', problem: 'functionResponse.name is required' };
  if (value.response !== undefined && !isJsonObject(value.response))
    return { kind: 'invalid', problem: 'functionResponse.response must be an object' };
  const files: FilePart[] = [];
  const parts: unknown[] = Array.isArray(value.parts) ? value.parts : [];
  for (const [index, item] of parts.entries()) {
    const dataKey = isJsonObject(item)
      ? ['inlineData', 'fileData'].find((key) => item[key] !== undefined)
      : undefined;
    const file =
      dataKey && isJsonObject(item) ? readFile(item, dataKey as 'inlineData' | 'fileData') : undefined;
    if (file === undefined || typeof file === 'string')
      losses.dropped(`${path}.parts[${index}]`, 'unreadable part');
    else files.push(file);
  }
  for (const key of Object.keys(value))
    if (!['id', 'name', 'response', 'parts'].includes(key))
      losses.dropped(`${path}.${key}`, 'no canonical place for this function response field');
  return { kind: 'function-response', id: asString(value.id), name, response: value.response ?? {}, files };
}

/** `inlineData` (https://ai.google.dev/api/caching#Blob) or `fileData` (#FileData); a problem as text. */
function readFile(part: JsonObject, key: 'inlineData' | 'fileData'): FilePart | string {
  const data = part[key];
  if (!isJsonObject(data)) return `${key} must be an object`;
  const mimeType = asString(data.mimeType);
  const displayName = asString(data.displayName);
  const named = displayName === undefined ? {} : { filename: displayName };
  if (key === 'inlineData') {
    const base64 = asString(data.data);
    if (mimeType === undefined || base64 === undefined) return 'inlineData needs mimeType and data';
    return { type: 'file', mediaType: mimeType, source: { kind: 'base64', data: base64 }, ...named };
  }
  const fileUri = asString(data.fileUri);
  if (fileUri === undefined) return 'fileData.fileUri is required';
  return {
    type: 'file',
    mediaType: mimeType ?? 'application/octet-stream',
    source: { kind: 'url', url: fileUri },
    ...named,
  };
}
