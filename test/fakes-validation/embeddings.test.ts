import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { fakeEmbeddingValues, tokensAsText } from '../fakes/fake-embedding-values.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

/** The embedding fakes, proved with the official SDKs pointed straight at them. */

const apiKey = 'sk-validation';
let openaiFake: FakeUpstream;
let geminiFake: FakeUpstream;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  openaiFake = await startFakeOpenAI({ apiKey });
  geminiFake = await startFakeGemini({ apiKey });
  openai = new OpenAI({ apiKey, baseURL: `${openaiFake.origin}/v1`, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: geminiFake.origin } });
});
afterAll(async () => {
  await openaiFake.close();
  await geminiFake.close();
});
beforeEach(() => {
  openaiFake.clear();
  geminiFake.clear();
});

/** What a float32 reply holds of a value: its nearest float32. */
const asFloat32 = (values: number[]) => values.map((value) => Math.fround(value));

describe('OpenAI embeddings: the fake takes what the openai SDK sends', () => {
  test('floats, when the client asks for them: exact values, dimensions long, usage', async () => {
    const reply = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['Paris', 'Rome'],
      encoding_format: 'float',
      dimensions: 4,
      user: 'user-42',
    });
    expect(openaiFake.requests[0]?.refused).toBeUndefined();
    expect(reply).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: fakeEmbeddingValues('Paris', 4) },
        { object: 'embedding', index: 1, embedding: fakeEmbeddingValues('Rome', 4) },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 20, total_tokens: 20 },
    });
  });

  test('the SDK asks for base64 by default and decodes the float32 values itself', async () => {
    const reply = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'Paris' });
    expect(openaiFake.requests[0]?.body).toEqual({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'base64',
    });
    const values = fakeEmbeddingValues('Paris');
    expect(reply.data[0]?.embedding).toEqual(asFloat32(values));
    // Six-decimal values do not survive float32: proof the fake packed float32, not float64.
    expect(reply.data[0]?.embedding).not.toEqual(values);
  });

  test('base64 asked for explicitly comes back as the string, float32 little-endian', async () => {
    const reply = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'Paris',
      encoding_format: 'base64',
    });
    const text = reply.data[0]?.embedding as unknown as string;
    expect(typeof text).toBe('string');
    const bytes = Buffer.from(text, 'base64');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const decoded = Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
    expect(decoded).toEqual(asFloat32(fakeEmbeddingValues('Paris')));
  });

  test('token arrays, one vector each; omitUsage leaves usage out', async () => {
    openaiFake.script({ type: 'reply', omitUsage: true });
    const reply = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: [
        [1, 2, 3],
        [4, 5],
      ],
      encoding_format: 'float',
    });
    expect(reply.data.map((item) => item.embedding)).toEqual([
      fakeEmbeddingValues(tokensAsText([1, 2, 3])),
      fakeEmbeddingValues(tokensAsText([4, 5])),
    ]);
    expect(reply.usage).toBeUndefined();
  });
});

/** [rule, body, the API's message] */
const openaiRefusals: [string, Record<string, unknown>, string][] = [
  ['unknown members', { model: 'm', input: 'hi', foo: 1 }, 'Unrecognized request argument supplied: foo'],
  ['a model', { input: 'hi' }, 'you must provide a model parameter'],
  ['an input', { model: 'm' }, "'input' is a required property"],
  ['no empty string', { model: 'm', input: '' }, "'$.input' is invalid."],
  ['no empty string in a list', { model: 'm', input: ['a', ''] }, "'$.input' is invalid."],
  ['no empty list', { model: 'm', input: [] }, "'$.input' is invalid."],
  ['no mixed list', { model: 'm', input: ['a', [1]] }, "'$.input' is invalid."],
  ['no empty token array', { model: 'm', input: [[]] }, "'$.input' is invalid."],
  ['at most 2048 inputs', { model: 'm', input: Array(2049).fill('a') }, "'$.input' is invalid."],
  [
    'encoding_format float or base64',
    { model: 'm', input: 'hi', encoding_format: 'md5' },
    "Invalid value for 'encoding_format' = md5. Supported values: ['float', 'base64'].",
  ],
  ['dimensions positive', { model: 'm', input: 'hi', dimensions: 0 }, "Invalid 'dimensions': integer below"],
  ['dimensions whole', { model: 'm', input: 'hi', dimensions: 1.5 }, "Invalid type for 'dimensions'"],
];

describe('OpenAI embeddings: the fake refuses what the API refuses', () => {
  test.each(openaiRefusals)('%s', async (_rule, body, message) => {
    const error = await openai.post('/embeddings', { body }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.error).toMatchObject({ type: 'invalid_request_error' });
    expect((refused.error as { message: string }).message).toContain(message);
  });

  test('2048 inputs are still taken', async () => {
    const reply = await openai.embeddings.create({
      model: 'm',
      input: Array<string>(2048).fill('a'),
      encoding_format: 'float',
    });
    expect(reply.data).toHaveLength(2048);
  });
});

describe('Gemini embeddings: the fake takes what @google/genai sends', () => {
  test('one content: the SDK calls batchEmbedContents with one request naming models/{model}', async () => {
    const reply = await genai.models.embedContent({ model: 'gemini-embedding-001', contents: 'Paris' });
    const [received] = geminiFake.requests;
    expect(received?.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(received?.body).toEqual({
      requests: [
        { content: { role: 'user', parts: [{ text: 'Paris' }] }, model: 'models/gemini-embedding-001' },
      ],
    });
    expect(received?.refused).toBeUndefined();
    expect(reply.embeddings).toEqual([{ values: fakeEmbeddingValues('Paris') }]);
    expect(reply.metadata).toBeUndefined();
  });

  test('several contents with a task type, title and dimensions: one vector each', async () => {
    const reply = await genai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['Paris', 'Rome'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals', outputDimensionality: 3 },
    });
    expect(geminiFake.requests[0]?.body).toMatchObject({
      requests: [
        { taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals', outputDimensionality: 3 },
        { taskType: 'RETRIEVAL_DOCUMENT', title: 'Capitals', outputDimensionality: 3 },
      ],
    });
    expect(reply.embeddings).toEqual([
      { values: fakeEmbeddingValues('Paris', 3) },
      { values: fakeEmbeddingValues('Rome', 3) },
    ]);
  });

  test('embedContent (raw: the SDK never calls it on the Gemini API): one vector, parts one line each', async () => {
    const reply = await postGemini('gemini-embedding-001:embedContent', {
      content: { parts: [{ text: 'Paris' }, { text: 'Rome' }] },
      taskType: 'SEMANTIC_SIMILARITY',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ embedding: { values: fakeEmbeddingValues('Paris\nRome') } });
  });
});

describe('Gemini embeddings: the fake refuses what the API refuses, in the Gemini shape', () => {
  test('a task type outside the enum, through the SDK', async () => {
    const error = await genai.models
      .embedContent({ model: 'gemini-embedding-001', contents: 'hi', config: { taskType: 'SUMMARY' } })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.parse((error as ApiError).message)).toEqual({
      error: {
        code: 400,
        message:
          'Invalid value at \'requests[0].task_type\' (type.googleapis.com/google.ai.generativelanguage.v1beta.TaskType), "SUMMARY"',
        status: 'INVALID_ARGUMENT',
      },
    });
  });

  const text = { parts: [{ text: 'hi' }] };
  const item = { model: 'models/gemini-embedding-001', content: text };
  test.each<[string, string, Record<string, unknown>, string]>([
    [
      'a title only with RETRIEVAL_DOCUMENT',
      'embedContent',
      { content: text, title: 'T' },
      'title is only supported',
    ],
    ['content is required', 'embedContent', { taskType: 'CLUSTERING' }, 'content is not specified'],
    ['text parts only', 'embedContent', { content: { parts: [{ inlineData: {} }] } }, 'only text parts'],
    ['no unknown fields', 'embedContent', { content: text, foo: 1 }, 'Unknown name "foo"'],
    [
      'dimensions positive',
      'embedContent',
      { content: text, outputDimensionality: 0 },
      'output_dimensionality must be positive',
    ],
    ['requests not empty', 'batchEmbedContents', { requests: [] }, 'requests is not specified'],
    [
      'each request names a model',
      'batchEmbedContents',
      { requests: [{ content: text }] },
      'unexpected model',
    ],
    [
      "each request's model is the URL's",
      'batchEmbedContents',
      { requests: [item, { ...item, model: 'models/text-embedding-004' }] },
      'Model name in the request (models/text-embedding-004) does not match the model name in the URL (models/gemini-embedding-001).',
    ],
    [
      'at most 100 requests',
      'batchEmbedContents',
      { requests: Array(101).fill(item) },
      'at most 100 requests',
    ],
  ])('%s', async (_rule, method, body, message) => {
    const reply = await postGemini(`gemini-embedding-001:${method}`, body);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(reply.body.error.message).toContain(message);
    expect(geminiFake.requests[0]?.refused?.message).toContain(message);
  });
});

async function postGemini(target: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${geminiFake.origin}/v1beta/models/${target}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
