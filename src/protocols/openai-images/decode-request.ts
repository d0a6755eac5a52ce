import type {
  ImageDelivery,
  ImageFormat,
  ImageGenerationRequest,
  ImageSize,
  PersonGeneration,
} from '../../ir/image-generation.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError, requireString } from '../invalid-request-error.js';
import { setOwnMember, type JsonObject } from '../wire-json.js';
import { OPENAI_IMAGES_MAPPED_MEMBERS } from './wire-types.js';

/** Key of this protocol's members in `ImageGenerationRequest.extensions`. */
export const OPENAI_IMAGES = 'openai-images';

const mapped: ReadonlySet<string> = new Set(OPENAI_IMAGES_MAPPED_MEMBERS);

const deliveries: Record<string, ImageDelivery> = { b64_json: 'base64', url: 'url' };
const formats: Record<string, ImageFormat> = { png: 'png', jpeg: 'jpeg', webp: 'webp' };
/**
 * The gateway's own extension member `person_generation`, named after Imagen's `personGeneration`
 * values (https://ai.google.dev/gemini-api/docs/imagen#imagen-configuration).
 */
const personGenerations: Record<string, PersonGeneration> = {
  dont_allow: 'none',
  allow_adult: 'adults',
  allow_all: 'everyone',
};

/**
 * An image generation request (https://platform.openai.com/docs/api-reference/images/create;
 * `ImageGenerateParamsBase` in openai/resources/images.d.ts) in the canonical form. Besides
 * OpenAI's members it reads two extensions for models that take them: `negative_prompt` and
 * `person_generation`. Members without a canonical place (`quality`, `style`, `background`,
 * `moderation`, `user`...) are kept as extensions. The gateway never streams images, so `stream`
 * and `partial_images` are recorded as dropped. A value of the wrong type is the client's error.
 */
export function decodeOpenAIImagesRequest(
  body: JsonObject,
  options: { losses: LossLog },
): ImageGenerationRequest {
  const { losses } = options;
  const request: ImageGenerationRequest = {
    prompt: requireString(body.prompt, 'prompt'),
    count: readCount(body.n),
    extensions: {},
  };
  const size = readSize(body.size);
  if (size) request.size = size;
  const negativePrompt = optionalString(body.negative_prompt, 'negative_prompt');
  if (negativePrompt !== undefined) request.negativePrompt = negativePrompt;
  const personGeneration = optionalChoice({
    value: body.person_generation,
    field: 'person_generation',
    choices: personGenerations,
  });
  if (personGeneration) request.personGeneration = personGeneration;
  const outputFormat = optionalChoice({
    value: body.output_format,
    field: 'output_format',
    choices: formats,
  });
  if (outputFormat) request.outputFormat = outputFormat;
  const compression = readCompression(body.output_compression);
  if (compression !== undefined) request.outputCompression = compression;
  const delivery = optionalChoice({
    value: body.response_format,
    field: 'response_format',
    choices: deliveries,
  });
  if (delivery) request.delivery = delivery;

  // https://platform.openai.com/docs/api-reference/images-streaming: partial images arrive as
  // server-sent events, which this endpoint does not relay; the final image comes back whole.
  if (body.stream !== undefined && body.stream !== null && body.stream !== false)
    losses.dropped('stream', 'images are not streamed; the reply comes whole');
  if (body.partial_images !== undefined && body.partial_images !== null)
    losses.dropped('partial_images', 'images are not streamed; no partial images are sent');

  let rest: JsonObject | undefined;
  for (const name of Object.keys(body)) {
    if (mapped.has(name) || body[name] === undefined) continue;
    rest ??= {};
    setOwnMember(rest, name, body[name]);
  }
  if (rest) request.extensions[OPENAI_IMAGES] = rest;
  return request;
}

/** `n`: 1 when absent; the endpoint has already refused anything outside 1..128. */
function readCount(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new InvalidRequestError('n', 'must be an integer between 1 and 128');
  return value;
}

/** `size`: `auto` or `WIDTHxHEIGHT` in pixels (`1024x1024`, and any such pair for gpt-image-2). */
function readSize(value: unknown): ImageSize | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto') return { kind: 'auto' };
  const match = typeof value === 'string' ? /^([1-9]\d{0,4})x([1-9]\d{0,4})$/.exec(value) : null;
  if (!match) throw new InvalidRequestError('size', 'must be "auto" or WIDTHxHEIGHT, such as "1024x1024"');
  return { kind: 'pixels', width: Number(match[1]), height: Number(match[2]) };
}

/** `output_compression`: 0 to 100 percent. */
function readCompression(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100)
    throw new InvalidRequestError('output_compression', 'must be an integer between 0 and 100');
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(field, 'must be a string');
  return value;
}

function optionalChoice<T>(options: {
  value: unknown;
  field: string;
  choices: Record<string, T>;
}): T | undefined {
  const { value, field, choices } = options;
  if (value === undefined || value === null) return undefined;
  const choice = typeof value === 'string' && Object.hasOwn(choices, value) ? choices[value] : undefined;
  if (choice === undefined)
    throw new InvalidRequestError(field, `must be one of ${Object.keys(choices).join(', ')}`);
  return choice;
}
