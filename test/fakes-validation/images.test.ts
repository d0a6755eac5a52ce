import { ApiError, GoogleGenAI, PersonGeneration } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { FAKE_PNG_BASE64 } from '../fakes/fake-image-bytes.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { FAKE_CREATED_AT, type FakeUpstream } from '../fakes/fake-upstream.js';

/**
 * The image fakes against the official SDKs pointed straight at them: what the SDKs send is
 * taken, what they parse is what the fakes answer, and bodies the real APIs refuse are refused.
 */

const apiKey = 'sk-validation';
let openaiFake: FakeUpstream;
let geminiFake: FakeUpstream;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  openaiFake = await startFakeOpenAI({ apiKey });
  geminiFake = await startFakeGemini({ apiKey });
  openai = new OpenAI({ apiKey, baseURL: `${openaiFake.origin}/v1`, maxRetries: 0 });
  // @google/genai 2.x sends `generateImages` through its Vertex AI converters only. In express mode
  // (an API key, no project) with API version `v1beta` and a `models/` name, the request lands on
  // the Gemini API's own path, `/v1beta/models/{model}:predict`, keyed by `x-goog-api-key`.
  genai = new GoogleGenAI({
    vertexai: true,
    apiKey,
    httpOptions: { baseUrl: geminiFake.origin, apiVersion: 'v1beta' },
  });
  // The SDK warns once that `generateImages` is deprecated.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await openaiFake.close();
  await geminiFake.close();
});

beforeEach(() => {
  openaiFake.clear();
  geminiFake.clear();
});

describe('the OpenAI images fake', () => {
  test('gpt-image: base64 images, the settings used and the token usage', async () => {
    const response = await openai.images.generate({
      model: 'gpt-image-1',
      prompt: 'A lighthouse at dusk',
      n: 2,
      size: '1536x1024',
      quality: 'low',
      background: 'opaque',
      moderation: 'low',
      output_format: 'webp',
      output_compression: 60,
      user: 'user-1',
    });
    expect(response).toEqual({
      created: FAKE_CREATED_AT,
      background: 'opaque',
      data: [{ b64_json: FAKE_PNG_BASE64 }, { b64_json: FAKE_PNG_BASE64 }],
      output_format: 'webp',
      quality: 'low',
      size: '1536x1024',
      usage: {
        input_tokens: 20,
        input_tokens_details: { text_tokens: 20, image_tokens: 0 },
        output_tokens: 12,
        total_tokens: 32,
      },
    });
    expect(openaiFake.requests[0]?.path).toBe('/v1/images/generations');
  });

  test('dall-e-3: a link and the revised prompt, no usage; dall-e-2 base64 on request', async () => {
    const three = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'A fox',
      size: '1024x1792',
      quality: 'hd',
      style: 'natural',
    });
    expect(three.usage).toBeUndefined();
    expect(three.data).toEqual([
      {
        url: expect.stringMatching(/^https:\/\/images\.fake-openai\.invalid\/img_fake\d{4}\.png$/),
        revised_prompt: 'A detailed picture of A fox',
      },
    ]);
    const two = await openai.images.generate({
      model: 'dall-e-2',
      prompt: 'A fox',
      n: 3,
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(two.data).toEqual([1, 2, 3].map(() => ({ b64_json: FAKE_PNG_BASE64 })));
  });

  test('gpt-image streaming: partial images, then the completed image with usage', async () => {
    const stream = await openai.images.generate({
      model: 'gpt-image-1',
      prompt: 'A fox',
      stream: true,
      partial_images: 1,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['image_generation.partial_image', 'image_generation.completed']);
  });

  test.each([
    [
      { model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' },
      "Unknown parameter: 'response_format'.",
    ],
    [{ model: 'gpt-image-1', prompt: 'x', size: '1792x1024' }, "Invalid value: '1792x1024'."],
    [{ model: 'gpt-image-1', prompt: 'x', quality: 'hd' }, "Invalid value: 'hd'."],
    [{ model: 'gpt-image-2', prompt: 'x', background: 'transparent' }, 'Transparent background'],
    [{ model: 'gpt-image-1', prompt: 'x', n: 11 }, 'Expected a value <= 10, but got 11 instead.'],
    [{ model: 'dall-e-3', prompt: 'x', n: 2 }, 'You must provide n=1 for this model.'],
    [{ model: 'dall-e-3', prompt: 'x', size: '512x512' }, "Invalid value: '512x512'."],
    [{ model: 'dall-e-3', prompt: 'x', output_format: 'png' }, "Unknown parameter: 'output_format'."],
    [{ model: 'dall-e-2', prompt: 'x', style: 'vivid' }, "Unknown parameter: 'style'."],
    [{ model: 'gpt-image-1' }, "Missing required parameter: 'prompt'."],
    [{ model: 'gpt-image-1', prompt: 'x', negative_prompt: 'y' }, "Unknown parameter: 'negative_prompt'."],
  ])('refuses %j', async (body, message) => {
    const error = await openai.images.generate(body as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(message);
    expect(openaiFake.requests[0]?.refused?.message).toContain(message);
  });

  test('gpt-image-2 takes custom sizes in multiples of 16', async () => {
    await openai.images.generate({ model: 'gpt-image-2', prompt: 'x', size: '1536x864' });
    const wrong = await openai.images
      .generate({ model: 'gpt-image-2', prompt: 'x', size: '1000x1000' })
      .catch((caught: unknown) => caught);
    expect(wrong).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe('the Imagen fake', () => {
  test('takes what generateImages sends and answers what it reads', async () => {
    const response = await genai.models.generateImages({
      model: 'models/imagen-4.0-generate-001',
      prompt: 'A lighthouse at dusk',
      config: {
        numberOfImages: 2,
        aspectRatio: '16:9',
        imageSize: '2K',
        personGeneration: PersonGeneration.ALLOW_ADULT,
        outputMimeType: 'image/jpeg',
        outputCompressionQuality: 80,
        includeRaiReason: true,
      },
    });
    const [request] = geminiFake.requests;
    expect(request?.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict');
    expect(request?.headers['x-goog-api-key']).toBe(apiKey);
    expect(request?.body).toEqual({
      instances: [{ prompt: 'A lighthouse at dusk' }],
      parameters: {
        sampleCount: 2,
        aspectRatio: '16:9',
        sampleImageSize: '2K',
        personGeneration: 'ALLOW_ADULT',
        outputOptions: { mimeType: 'image/jpeg', compressionQuality: 80 },
        includeRaiReason: true,
      },
    });
    expect(response.generatedImages?.map((image) => image.image)).toEqual([
      { imageBytes: FAKE_PNG_BASE64, mimeType: 'image/jpeg' },
      { imageBytes: FAKE_PNG_BASE64, mimeType: 'image/jpeg' },
    ]);
  });

  test('a rewritten prompt and a filtered image, as the SDK reads them', async () => {
    geminiFake.script({ type: 'reply', text: 'A red lighthouse, watercolour', refusal: true });
    const response = await genai.models.generateImages({
      model: 'models/imagen-4.0-fast-generate-001',
      prompt: 'lighthouse',
      config: { numberOfImages: 2, includeRaiReason: true },
    });
    expect(response.generatedImages?.[0]).toMatchObject({
      image: { imageBytes: FAKE_PNG_BASE64, mimeType: 'image/png' },
      enhancedPrompt: 'A red lighthouse, watercolour',
    });
    expect(response.generatedImages?.[1]?.raiFilteredReason).toMatch(/^Unable to show generated images/);
  });

  test('sampleCount defaults to 4; every image filtered without reasons leaves none', async () => {
    const four = await genai.models.generateImages({ model: 'models/imagen-3.0-generate-002', prompt: 'x' });
    expect(four.generatedImages).toHaveLength(4);
    geminiFake.script({ type: 'reply', refusal: true });
    const none = await genai.models.generateImages({
      model: 'models/imagen-3.0-generate-002',
      prompt: 'x',
      config: { numberOfImages: 1 },
    });
    expect(none.generatedImages).toEqual([]);
  });

  test.each([
    ['imagen-4.0-generate-001', { numberOfImages: 5 }, 'must be between 1 and 4'],
    ['imagen-4.0-generate-001', { aspectRatio: '2:1' }, 'Unsupported aspect ratio'],
    [
      'imagen-4.0-generate-001',
      { negativePrompt: 'people' },
      'Setting negativePrompt is no longer supported.',
    ],
    ['imagen-4.0-generate-001', { seed: 7 }, 'seed parameter is not supported in Gemini API.'],
    ['imagen-4.0-fast-generate-001', { imageSize: '2K' }, 'sampleImageSize is not supported'],
    ['imagen-4.0-generate-001', { outputMimeType: 'image/webp' }, 'Unsupported output mime type'],
    ['gemini-2.5-flash-image', {}, 'is not supported for predict'],
  ])('%s refuses %j', async (model, config, message) => {
    const error = await genai.models
      .generateImages({ model: `models/${model}`, prompt: 'x', config })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain(message);
  });

  test('refuses bodies no SDK sends: unknown members, several instances, no prompt', async () => {
    const predict = (body: unknown) =>
      fetch(`${geminiFake.origin}/v1beta/models/imagen-4.0-generate-001:predict`, {
        method: 'POST',
        headers: { 'x-goog-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    const unknown = await predict({ instances: [{ prompt: 'x' }], parameters: { width: 10 } });
    expect(unknown).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(unknown.body.error.message).toContain('Unknown name "width" at \'parameters\'');
    expect((await predict({ instances: [{ prompt: 'x' }, { prompt: 'y' }] })).status).toBe(400);
    expect((await predict({ instances: [{}] })).status).toBe(400);
    expect((await predict({ instances: [{ prompt: 'x' }] })).status).toBe(200);
  });
});
