import type { FakeEndpoint } from './fake-endpoint.js';
import { FAKE_PNG_BASE64 } from './fake-image-bytes.js';
import {
  asRecord,
  FAKE_CREATED_AT,
  isRecord,
  sseEvent,
  type FakeUsage,
  type RequestProblem,
} from './fake-upstream.js';
import {
  checkEnum,
  checkKnownMembers,
  checkMaxLength,
  checkNumber,
  checkString,
  invalidType,
  unknownParameter,
} from './openai-request-problems.js';

/** `ImageGenerateParamsBase` in openai/resources/images.d.ts. */
const members = new Set([
  'prompt',
  'model',
  'n',
  'size',
  'quality',
  'response_format',
  'style',
  'user',
  'background',
  'moderation',
  'output_format',
  'output_compression',
  'stream',
  'partial_images',
]);

/** Members only the GPT image models take; the DALL·E models refuse them as unknown. */
const gptImageOnly = [
  'background',
  'moderation',
  'output_format',
  'output_compression',
  'stream',
  'partial_images',
];

type Family = 'gpt-image' | 'dall-e-2' | 'dall-e-3';

/** Per model: sizes, qualities and prompt length (https://platform.openai.com/docs/api-reference/images/create). */
const rules: Record<Family, { sizes: string[]; qualities: string[]; maxPrompt: number }> = {
  'gpt-image': {
    sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
    qualities: ['low', 'medium', 'high', 'auto'],
    maxPrompt: 32000,
  },
  'dall-e-2': {
    sizes: ['256x256', '512x512', '1024x1024'],
    qualities: ['standard', 'auto'],
    maxPrompt: 1000,
  },
  'dall-e-3': {
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    qualities: ['standard', 'hd', 'auto'],
    maxPrompt: 4000,
  },
};

/** The model's family; the API's default model is `dall-e-2`. Undefined: no such image model. */
function familyOf(model: unknown): Family | undefined {
  if (model === undefined || model === null || model === 'dall-e-2') return 'dall-e-2';
  if (model === 'dall-e-3') return 'dall-e-3';
  if (typeof model === 'string' && model.startsWith('gpt-image-')) return 'gpt-image';
  return undefined;
}

/**
 * `POST /v1/images/generations` as the real API checks it: the prompt, the model's own sizes and
 * qualities, `n` from 1 to 10 (only 1 for dall-e-3), `response_format` for the DALL·E models only,
 * the GPT image options for GPT image models only, and no unknown members. It answers an
 * `ImagesResponse`: `b64_json` images (GPT image models always; DALL·E with
 * `response_format: "b64_json"`) or links, dall-e-3's `revised_prompt`, and for GPT image models
 * the settings used and the token usage. With `stream: true` it streams `image_generation.*` events.
 */
export const openaiImages: FakeEndpoint = {
  validate(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    const unknown = checkKnownMembers(body, members);
    if (unknown) return unknown;
    const wrongModel = checkString(body.model, 'model', { optional: true });
    if (wrongModel) return wrongModel;
    const family = familyOf(body.model);
    if (!family)
      return {
        message: `Invalid value: '${String(body.model)}'. Value must be 'dall-e-2', 'dall-e-3' or a GPT image model.`,
        param: 'model',
        code: 'invalid_value',
      };
    const rule = rules[family];
    return (
      checkString(body.prompt, 'prompt') ??
      checkMaxLength(body.prompt as string, 'prompt', rule.maxPrompt) ??
      checkNumber(body.n, 'n', { integer: true, min: 1, max: 10 }) ??
      (family === 'dall-e-3' && body.n != null && body.n !== 1
        ? { message: 'You must provide n=1 for this model.', param: null, code: null }
        : undefined) ??
      checkSize(body, rule.sizes) ??
      checkEnum(body.quality, 'quality', rule.qualities) ??
      checkString(body.user, 'user', { optional: true }) ??
      (family === 'gpt-image' ? checkGptImage(body) : checkDallE(body, family))
    );
  },
  reply(request, content, nextId) {
    const body = asRecord(request.body);
    const family = familyOf(body.model) ?? 'dall-e-2';
    const count = typeof body.n === 'number' ? body.n : 1;
    const prompt = String(body.prompt);
    if (family !== 'gpt-image') {
      const asUrl = body.response_format !== 'b64_json';
      const data = Array.from({ length: count }, () => ({
        ...(asUrl
          ? { url: `https://images.fake-openai.invalid/${nextId('img_')}.png` }
          : { b64_json: FAKE_PNG_BASE64 }),
        ...(family === 'dall-e-3' && { revised_prompt: `A detailed picture of ${prompt}` }),
      }));
      return { kind: 'json', body: { created: FAKE_CREATED_AT, data } };
    }
    const settings = {
      background: body.background === 'transparent' ? 'transparent' : 'opaque',
      output_format: typeof body.output_format === 'string' ? body.output_format : 'png',
      quality: body.quality === undefined || body.quality === 'auto' ? 'high' : String(body.quality),
      size: body.size === undefined || body.size === 'auto' ? '1024x1024' : String(body.size),
    };
    const usage = content.omitUsage ? undefined : imagesUsage(content.usage);
    if (body.stream === true) return { kind: 'sse', events: streamEvents({ body, count, settings, usage }) };
    return {
      kind: 'json',
      body: {
        created: FAKE_CREATED_AT,
        background: settings.background,
        data: Array.from({ length: count }, () => ({ b64_json: FAKE_PNG_BASE64 })),
        output_format: settings.output_format,
        quality: settings.quality,
        size: settings.size,
        ...(usage && { usage }),
      },
    };
  },
};

/**
 * The model's standard sizes; `gpt-image-2` also draws any `WIDTHxHEIGHT` whose sides are
 * multiples of 16, up to 3840x2160, between 1:3 and 3:1.
 */
function checkSize(body: Record<string, unknown>, sizes: string[]): RequestProblem | undefined {
  const custom = typeof body.size === 'string' ? /^(\d+)x(\d+)$/.exec(body.size) : null;
  if (!custom || typeof body.model !== 'string' || !body.model.startsWith('gpt-image-2'))
    return checkEnum(body.size, 'size', sizes);
  const [width, height] = [Number(custom[1]), Number(custom[2])];
  const fits =
    width % 16 === 0 &&
    height % 16 === 0 &&
    Math.max(width, height) <= 3840 &&
    Math.min(width, height) <= 2160 &&
    Math.max(width, height) <= 3 * Math.min(width, height);
  if (fits) return undefined;
  return {
    message: `Invalid size '${body.size}'. Width and height must be multiples of 16, at most 3840x2160, with an aspect ratio between 1:3 and 3:1.`,
    param: 'size',
    code: 'invalid_value',
  };
}

function checkGptImage(body: Record<string, unknown>): RequestProblem | undefined {
  // GPT image models always answer base64; OpenAI refuses the member outright.
  if (body.response_format !== undefined) return unknownParameter('response_format');
  if (body.style !== undefined) return unknownParameter('style');
  const background = checkEnum(body.background, 'background', ['transparent', 'opaque', 'auto']);
  if (background) return background;
  if (body.background === 'transparent' && String(body.model).startsWith('gpt-image-2'))
    return {
      message: `Transparent background is not supported for this model.`,
      param: 'background',
      code: 'invalid_value',
    };
  if (body.background === 'transparent' && body.output_format === 'jpeg')
    return {
      message: "Transparent background requires 'png' or 'webp' as the output format.",
      param: 'background',
      code: 'invalid_value',
    };
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
    return invalidType('stream', 'a boolean', body.stream);
  return (
    checkEnum(body.moderation, 'moderation', ['low', 'auto']) ??
    checkEnum(body.output_format, 'output_format', ['png', 'jpeg', 'webp']) ??
    checkNumber(body.output_compression, 'output_compression', { integer: true, min: 0, max: 100 }) ??
    checkNumber(body.partial_images, 'partial_images', { integer: true, min: 0, max: 3 })
  );
}

function checkDallE(body: Record<string, unknown>, family: Family): RequestProblem | undefined {
  const gptOnly = gptImageOnly.find((name) => body[name] !== undefined);
  if (gptOnly) return unknownParameter(gptOnly);
  if (family === 'dall-e-2' && body.style !== undefined) return unknownParameter('style');
  return (
    checkEnum(body.style, 'style', ['vivid', 'natural']) ??
    checkEnum(body.response_format, 'response_format', ['url', 'b64_json'])
  );
}

/** `ImagesResponse.Usage`: the prompt is text only here, so every input token is a text token. */
function imagesUsage(usage: FakeUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { text_tokens: usage.inputTokens, image_tokens: 0 },
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** `ImageGenStreamEvent`s: the partial images asked for, then each image's completed event. */
function streamEvents(options: {
  body: Record<string, unknown>;
  count: number;
  settings: Record<string, string>;
  usage: ReturnType<typeof imagesUsage> | undefined;
}): string[] {
  const { body, count, settings, usage } = options;
  const partials = typeof body.partial_images === 'number' ? body.partial_images : 0;
  const events: string[] = [];
  for (let image = 0; image < count; image += 1) {
    for (let index = 0; index < partials; index += 1) {
      const type = 'image_generation.partial_image';
      events.push(
        sseEvent(
          {
            type,
            b64_json: FAKE_PNG_BASE64,
            created_at: FAKE_CREATED_AT,
            partial_image_index: index,
            ...settings,
          },
          { event: type },
        ),
      );
    }
    const type = 'image_generation.completed';
    events.push(
      sseEvent(
        {
          type,
          b64_json: FAKE_PNG_BASE64,
          created_at: FAKE_CREATED_AT,
          ...settings,
          ...(usage && { usage }),
        },
        { event: type },
      ),
    );
  }
  return events;
}
