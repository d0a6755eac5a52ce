import type { RecordedRequest, RequestProblem } from './fake-upstream.js';
import type { RecordedFilePart } from './parse-multipart.js';
import { checkNumber, invalidType, missing, unknownParameter } from './openai-request-problems.js';

/**
 * What both speech-to-text endpoints check of their `multipart/form-data` body
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription): a readable form, one
 * audio file part named `file` with a known extension, a `model`, no unknown fields.
 */

/** "flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, or webm", and `oga`, told by the file name. */
const AUDIO_EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

export function checkAudioForm(
  request: RecordedRequest,
  fields: ReadonlySet<string>,
): RequestProblem | undefined {
  const form = request.multipart;
  if (!form) {
    const type = request.headers['content-type'] ?? '';
    return {
      message: `Unsupported content type: '${type}'. This API method only accepts 'multipart/form-data' requests, but you specified the header 'Content-Type: ${type}'. Please try again with a supported content type.`,
      param: null,
      code: 'unsupported_content_type',
    };
  }
  if (form.error)
    return { message: `Could not parse multipart form: ${form.error}.`, param: null, code: null };
  // `chunking_strategy[type]` is how the SDK sends an object: its name is the part before `[`.
  const unknown = [...form.fields.map((field) => field.name), ...form.files.map((file) => file.name)].find(
    (name) => !fields.has(name) && !fields.has(name.replace(/\[.*$/, '')),
  );
  if (unknown !== undefined) return unknownParameter(unknown);
  return checkFile(request) ?? checkModel(request);
}

/** The uploaded audio; present once `checkAudioForm` has passed. */
export function audioFile(request: RecordedRequest): RecordedFilePart | undefined {
  return request.multipart?.files.find((file) => file.name === 'file');
}

/** A numeric text field in a range; absent is fine. */
export function checkFormNumber(
  value: unknown,
  param: string,
  range: { min?: number; max?: number },
): RequestProblem | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (Number.isNaN(number)) return invalidType(param, 'a decimal', value);
  return checkNumber(number, param, range);
}

/** `stream` as the SDK writes a boolean into a form: `"true"` or `"false"`. */
export function checkFormBoolean(value: unknown, param: string): RequestProblem | undefined {
  if (value === undefined || value === 'true' || value === 'false') return undefined;
  return invalidType(param, 'a boolean', value);
}

function checkFile(request: RecordedRequest): RequestProblem | undefined {
  const file = audioFile(request);
  const asText = request.multipart?.fields.find((field) => field.name === 'file');
  if (!file) return asText ? invalidType('file', 'a file', asText.value) : missing('file');
  const extension = /\.([^./\\]+)$/.exec(file.filename)?.[1]?.toLowerCase();
  if (!extension || !AUDIO_EXTENSIONS.includes(extension))
    return {
      message: `Invalid file format. Supported formats: [${AUDIO_EXTENSIONS.map((item) => `'${item}'`).join(', ')}]`,
      param: null,
      code: null,
    };
  if (file.bytes.length === 0)
    return { message: 'Audio file might be corrupted or unsupported', param: 'file', code: 'invalid_value' };
  return undefined;
}

function checkModel(request: RecordedRequest): RequestProblem | undefined {
  const model = request.multipart?.fields.find((field) => field.name === 'model');
  return model ? undefined : missing('model');
}
