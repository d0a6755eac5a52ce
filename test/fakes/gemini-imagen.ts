import type { FakeEndpoint } from './fake-endpoint.js';
import { FAKE_PNG_BASE64 } from './fake-image-bytes.js';
import { asRecord, isRecord, type RecordedRequest, type RequestProblem } from './fake-upstream.js';
import { checkKnownFields, checkScalar } from './gemini-request-problems.js';

/**
 * Members of `parameters` as @google/genai writes a `GenerateImagesConfig`
 * (`generateImagesConfigToVertex`; the Gemini API's converter of 1.x wrote the same names).
 */
const PARAMETERS = [
  'sampleCount',
  'aspectRatio',
  'sampleImageSize',
  'personGeneration',
  'outputOptions',
  'includeRaiReason',
  'includeSafetyAttributes',
  'safetySetting',
  'language',
  'guidanceScale',
  'negativePrompt',
  'seed',
  'addWatermark',
  'enhancePrompt',
  'storageUri',
];
/** Vertex AI only: @google/genai 1.x refused them for the Gemini API before sending. */
const VERTEX_ONLY = ['seed', 'addWatermark', 'enhancePrompt', 'storageUri'];
/** https://ai.google.dev/gemini-api/docs/imagen#imagen-configuration */
const ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'];
const PERSON_GENERATION = ['dont_allow', 'allow_adult', 'allow_all'];
const SAFETY_SETTINGS = ['block_low_and_above', 'block_medium_and_above', 'block_only_high', 'block_none'];
/** What the fake's default reply text is; a reply text other than it is the prompt Imagen rewrote. */
const DEFAULT_REPLY_TEXT = 'Hello from fake Gemini.';
const FILTERED_REASON =
  'Unable to show generated images. All images were filtered out because they violated Google\u2019s Responsible AI practices. You can try rephrasing your prompt.';

/**
 * `POST /v1beta/models/{model}:predict` for Imagen on the Gemini API
 * (https://ai.google.dev/gemini-api/docs/imagen): one instance with its `prompt`, and
 * `parameters` checked as the API does: `sampleCount` 1 to 4 (default 4), the five aspect ratios,
 * `sampleImageSize` for Imagen 4 Standard and Ultra only, no `negativePrompt` any more, and only
 * Imagen models. It answers `predictions`, one per image (`bytesBase64Encoded`, `mimeType`, and
 * `prompt` when the scripted reply text rewrites it). A scripted `refusal` filters the last image:
 * it becomes a `raiFilteredReason` entry when the request asked for reasons, else it is left out.
 */
export const geminiImagenPredict: FakeEndpoint = {
  validate(body, request) {
    if (!isRecord(body)) return { message: 'Invalid JSON payload received. Expected an object.' };
    const model = modelOfPath(request);
    if (!model.startsWith('imagen-'))
      return {
        message: `models/${model} is not found for API version v1beta, or is not supported for predict. Call ListModels to see the list of available models and their supported methods.`,
      };
    return (
      checkKnownFields(body, ['instances', 'parameters']) ??
      checkInstances(body.instances) ??
      checkParameters(body.parameters, model)
    );
  },
  reply(request, content) {
    const body = asRecord(request.body);
    const parameters = asRecord(body.parameters);
    const count = typeof parameters.sampleCount === 'number' ? parameters.sampleCount : 4;
    const mimeType = asRecord(parameters.outputOptions).mimeType ?? 'image/png';
    const rewritten = content.text === DEFAULT_REPLY_TEXT ? undefined : content.text;
    const predictions: Record<string, unknown>[] = Array.from({ length: count }, () => ({
      bytesBase64Encoded: FAKE_PNG_BASE64,
      mimeType,
      ...(rewritten !== undefined && { prompt: rewritten }),
    }));
    if (content.refusal) {
      predictions.pop();
      if (parameters.includeRaiReason === true) predictions.push({ raiFilteredReason: FILTERED_REASON });
    }
    // With every image filtered and no reasons asked for, the API answers an empty object.
    return { kind: 'json', body: predictions.length > 0 ? { predictions } : {} };
  },
};

function modelOfPath(request: RecordedRequest): string {
  const match = /^\/v1beta\/models\/([^/:]+):/.exec(request.path);
  return decodeURIComponent(match?.[1] ?? '');
}

function checkInstances(instances: unknown): RequestProblem | undefined {
  if (!Array.isArray(instances) || instances.length === 0)
    return { message: 'instances must be a non-empty list.' };
  if (instances.length > 1) return { message: 'Only one instance is supported per request.' };
  const instance = instances[0];
  if (!isRecord(instance)) return { message: 'Invalid value at instances[0]: expected an object.' };
  const unknown = checkKnownFields(instance, ['prompt'], 'instances[0]');
  if (unknown) return unknown;
  if (typeof instance.prompt !== 'string' || instance.prompt.trim() === '')
    return { message: 'The prompt of instances[0] is required and must be a non-empty string.' };
  return undefined;
}

function checkParameters(value: unknown, model: string): RequestProblem | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return { message: 'Invalid value at parameters: expected an object.' };
  const unknown = checkKnownFields(value, PARAMETERS, 'parameters');
  if (unknown) return unknown;
  if (value.negativePrompt !== undefined)
    return { message: 'Setting negativePrompt is no longer supported.' };
  const vertexOnly = VERTEX_ONLY.find((name) => value[name] !== undefined);
  if (vertexOnly) return { message: `${vertexOnly} parameter is not supported in Gemini API.` };
  const { sampleCount } = value;
  if (
    sampleCount !== undefined &&
    (typeof sampleCount !== 'number' || !Number.isInteger(sampleCount) || sampleCount < 1 || sampleCount > 4)
  )
    return {
      message: `Number of images requested (sampleCount) must be between 1 and 4, got ${JSON.stringify(sampleCount)}.`,
    };
  if (value.aspectRatio !== undefined && !ASPECT_RATIOS.includes(value.aspectRatio as string))
    return {
      message: `Unsupported aspect ratio ${JSON.stringify(value.aspectRatio)}. Supported values are ${ASPECT_RATIOS.join(', ')}.`,
    };
  if (value.sampleImageSize !== undefined) {
    if (!['1K', '2K'].includes(value.sampleImageSize as string))
      return {
        message: `Unsupported image size ${JSON.stringify(value.sampleImageSize)}. Supported values are 1K, 2K.`,
      };
    // Imagen 4 Fast and the Imagen 3 models draw one size only.
    if (!/^imagen-4\.0-(ultra-)?generate-/.test(model))
      return { message: `sampleImageSize is not supported for model ${model}.` };
  }
  return (
    checkChoice(value.personGeneration, 'personGeneration', PERSON_GENERATION) ??
    checkChoice(value.safetySetting, 'safetySetting', SAFETY_SETTINGS) ??
    checkScalar(value.includeRaiReason, 'parameters.includeRaiReason', 'TYPE_BOOL') ??
    checkScalar(value.includeSafetyAttributes, 'parameters.includeSafetyAttributes', 'TYPE_BOOL') ??
    checkScalar(value.guidanceScale, 'parameters.guidanceScale', 'TYPE_FLOAT') ??
    checkScalar(value.language, 'parameters.language', 'TYPE_STRING') ??
    checkOutputOptions(value.outputOptions)
  );
}

/** Enum strings of `parameters`, which the API reads in either case (`ALLOW_ADULT`, `allow_adult`). */
function checkChoice(value: unknown, name: string, choices: readonly string[]): RequestProblem | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && choices.includes(value.toLowerCase())) return undefined;
  return {
    message: `Invalid ${name} value ${JSON.stringify(value)}. Supported values are ${choices.join(', ')}.`,
  };
}

function checkOutputOptions(value: unknown): RequestProblem | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return { message: 'Invalid value at parameters.outputOptions: expected an object.' };
  const unknown = checkKnownFields(value, ['mimeType', 'compressionQuality'], 'parameters.outputOptions');
  if (unknown) return unknown;
  if (value.mimeType !== undefined && value.mimeType !== 'image/png' && value.mimeType !== 'image/jpeg')
    return {
      message: `Unsupported output mime type ${JSON.stringify(value.mimeType)}. Supported values are image/png, image/jpeg.`,
    };
  const quality = value.compressionQuality;
  if (
    quality !== undefined &&
    (typeof quality !== 'number' || !Number.isInteger(quality) || quality < 0 || quality > 100)
  )
    return {
      message: `compressionQuality must be an integer between 0 and 100, got ${JSON.stringify(quality)}.`,
    };
  return undefined;
}
