import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { issueThoughtSignature } from '../fakes/gemini-generate-reply.js';

const apiKey = 'sk-validation';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

let fake: FakeUpstream;
let client: GoogleGenAI;
beforeAll(async () => {
  fake = await startFakeGemini({ apiKey });
  client = new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.origin } });
});
afterAll(() => fake.close());

describe('the fake takes what @google/genai sends', () => {
  test('a single turn without a role, a system instruction and sampling', async () => {
    const response = await client.models.generateContent({
      model: 'gemini-2.5-pro',
      contents: 'hi',
      config: {
        systemInstruction: 'Be terse.',
        temperature: 0.2,
        topP: 0.9,
        topK: 20,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        seed: 7,
        responseMimeType: 'application/json',
      },
    });
    expect(response.text).toBe('Hello from fake Gemini.');
  });

  test('images, thinking, a function call and its response, streamed', async () => {
    const stream = await client.models.generateContentStream({
      model: 'gemini-2.5-pro',
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather where this was taken?' },
            { inlineData: { mimeType: 'image/png', data: PNG } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Looking at it.', thought: true },
            {
              functionCall: { name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: issueThoughtSignature('earlier-reply:call'),
            },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: '18C' } } },
            { functionResponse: { name: 'get_weather', response: { output: '24C' } } },
          ],
        },
        {
          role: 'model',
          parts: [{ text: '', thoughtSignature: issueThoughtSignature('earlier-reply:text') }],
        },
        { role: 'user', parts: [{ text: 'Which is warmer?' }] },
      ],
      config: {
        tools: [
          { functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherSchema }] },
          {
            functionDeclarations: [
              { name: 'lookup', parameters: { type: 'OBJECT' as never, properties: {} } },
            ],
          },
        ],
        thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 },
      },
    });
    for await (const chunk of stream) expect(chunk.candidates?.[0]?.index).toBe(0);
  });

  test('a thinking level', async () => {
    await client.models.generateContent({
      model: 'gemini-3-pro',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: { thinkingConfig: { thinkingLevel: 'LOW' as never } },
    });
  });
});

const user = { role: 'user', parts: [{ text: 'hi' }] };
const call = { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] };
const answer = { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] };

/** Each rule, broken by one minimal body merged into what the SDK sends: [rule, body, the API's message]. */
const refusals: [string, Record<string, unknown>, string][] = [
  [
    'contents are not empty',
    { contents: [] },
    '* GenerateContentRequest.contents: contents is not specified',
  ],
  [
    'roles are user or model',
    { contents: [{ role: 'assistant', parts: [{ text: 'hi' }] }] },
    'Please use a valid role: user, model.',
  ],
  [
    'roles may be left out only in a single turn',
    { contents: [{ parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ text: 'Hello.' }] }] },
    'Please use a valid role: user, model.',
  ],
  [
    'parts are not empty',
    { contents: [{ role: 'user', parts: [] }] },
    '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.',
  ],
  [
    'a part has one data field',
    { contents: [{ role: 'user', parts: [{ thought: true }] }] },
    "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field",
  ],
  [
    'a part has no more than one data field',
    {
      contents: [{ role: 'user', parts: [{ text: 'hi', inlineData: { mimeType: 'image/png', data: PNG } }] }],
    },
    "Invalid value at 'contents[0].parts[0]' (oneof), oneof field 'data' is already set. Cannot set 'inlineData'",
  ],
  [
    'text is not empty',
    { contents: [{ role: 'user', parts: [{ text: '' }] }] },
    'Unable to submit request because it has an empty text parameter.',
  ],
  [
    'parts have no unknown fields',
    { contents: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] },
    'Invalid JSON payload received. Unknown name "type" at \'contents[0].parts[0]\': Cannot find field.',
  ],
  [
    'inline data is base64',
    {
      contents: [
        {
          role: 'user',
          parts: [{ inlineData: { mimeType: 'image/png', data: `data:image/png;base64,${PNG}` } }],
        },
      ],
    },
    "Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed",
  ],
  [
    'a function response has a name',
    { contents: [user, call, { role: 'user', parts: [{ functionResponse: { response: {} } }] }] },
    '* GenerateContentRequest.contents[2].parts[0].function_response.name: Name cannot be empty.',
  ],
  [
    'a function response is an object',
    {
      contents: [user, call, { role: 'user', parts: [{ functionResponse: { name: 'f', response: '18C' } }] }],
    },
    'Invalid value at \'contents[2].parts[0].function_response.response\' (type.googleapis.com/google.protobuf.Struct), "18C"',
  ],
  [
    'a function response follows a function call',
    { contents: [user, { role: 'model', parts: [{ text: 'Sure.' }] }, answer] },
    'Please ensure that function response turn comes immediately after a function call turn.',
  ],
  [
    'one function response per function call',
    {
      contents: [user, { role: 'model', parts: [call.parts[0], call.parts[0]] }, answer],
    },
    'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
  ],
  [
    'a function call follows a user turn or a function response',
    { contents: [user, { role: 'model', parts: [{ text: 'Sure.' }] }, call, answer] },
    'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
  ],
  [
    'the system instruction holds text',
    { systemInstruction: { parts: [{ text: '' }] } },
    "* GenerateContentRequest.system_instruction.parts[0].data: required oneof field 'data' must have one initialized field",
  ],
  [
    'function declarations have a name',
    { tools: [{ functionDeclarations: [{ description: 'x' }] }] },
    '* GenerateContentRequest.tools[0].function_declarations[0].name: Name cannot be empty.',
  ],
  [
    'function names are valid',
    { tools: [{ functionDeclarations: [{ name: '1weather' }] }] },
    '* GenerateContentRequest.tools[0].function_declarations[0].name: Invalid function name.',
  ],
  [
    'parameters are an OpenAPI schema, without JSON Schema keywords',
    {
      tools: [
        {
          functionDeclarations: [{ name: 'f', parameters: { type: 'object', additionalProperties: false } }],
        },
      ],
    },
    'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
  ],
  [
    'generation config fields have their types',
    { generationConfig: { temperature: 'hot' } },
    'Invalid value at \'generation_config.temperature\' (TYPE_FLOAT), "hot"',
  ],
  [
    'generation config has no unknown fields',
    { generationConfig: { max_tokens: 10 } },
    'Invalid JSON payload received. Unknown name "max_tokens" at \'generation_config\': Cannot find field.',
  ],
  [
    'a thinking budget or a thinking level, not both',
    { generationConfig: { thinkingConfig: { thinkingBudget: 1024, thinkingLevel: 'LOW' } } },
    'You can only set only one of thinking budget and thinking level.',
  ],
  [
    'the request has no unknown fields',
    { messages: [] },
    'Invalid JSON payload received. Unknown name "messages": Cannot find field.',
  ],
];

describe('the fake refuses what the API refuses, as an ApiError in the Gemini shape', () => {
  test.each(refusals)('%s', async (_rule, body, message) => {
    const error = await client.models
      .generateContent({
        model: 'gemini-2.5-pro',
        contents: 'hi',
        config: { httpOptions: { extraBody: body } },
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(ApiError);
    const refused = error as ApiError;
    expect(refused.status).toBe(400);
    const wire = JSON.parse(refused.message) as { error: { code: number; message: string; status: string } };
    expect(wire.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(Object.keys(wire.error).sort()).toEqual(['code', 'message', 'status']);
    expect(wire.error.message).toContain(message);
  });
});

/** The error an SDK call ends with, or undefined when it succeeds. */
function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
}

function wireError(error: unknown): { code: number; message: string; status: string } {
  expect(error).toBeInstanceOf(ApiError);
  return (
    JSON.parse((error as ApiError).message) as { error: { code: number; message: string; status: string } }
  ).error;
}

const weatherTool = {
  functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherSchema }],
};
const question = { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] };
const responses = (count: number) => ({
  role: 'user',
  parts: Array.from({ length: count }, () => ({
    functionResponse: { name: 'get_weather', response: { output: '18C' } },
  })),
});

describe('thought signatures (https://ai.google.dev/gemini-api/docs/thought-signatures)', () => {
  test('a Gemini 3 reply signs its first function call, and the SDK echoes it back accepted', async () => {
    const first = await client.models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: [question],
      config: { tools: [weatherTool] },
    });
    const content = first.candidates?.[0]?.content;
    expect(content?.parts?.[0]?.functionCall?.name).toBe('get_weather');
    expect(content?.parts?.[0]?.thoughtSignature).toMatch(/^[A-Za-z0-9+/]+=*$/);

    const second = await client.models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: [question, content!, responses(1)],
      config: { tools: [weatherTool] },
    });
    expect(second.candidates?.[0]?.finishReason).toBe('STOP');
  });

  test('Gemini 3 refuses a current-turn call without a signature, naming the call and its content', async () => {
    const error = await failure(
      client.models.generateContent({
        model: 'gemini-3-flash-preview',
        contents: [
          question,
          { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
          responses(1),
        ],
        config: { tools: [weatherTool] },
      }),
    );
    expect(wireError(error)).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message:
        'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    });
  });

  test('the current turn spans every call and response after the last user text', async () => {
    const signed = issueThoughtSignature('earlier-reply:call');
    const call = (city: string, signature?: string) => ({
      functionCall: { name: 'get_weather', args: { city } },
      ...(signature && { thoughtSignature: signature }),
    });
    const error = await failure(
      client.models.generateContent({
        model: 'gemini-3-pro-preview',
        contents: [
          question,
          { role: 'model', parts: [call('Paris', signed)] },
          responses(1),
          { role: 'model', parts: [call('Rome')] },
          responses(1),
        ],
        config: { tools: [weatherTool] },
      }),
    );
    expect(wireError(error).message).toContain('function call `default_api:get_weather` , position 4.');
  });

  test('Gemini 3 takes a call of an earlier turn unsigned, later parallel calls unsigned, and the placeholders', async () => {
    const unsignedEarlier = {
      role: 'model',
      parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }],
    };
    for (const placeholder of ['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go'])
      await client.models.generateContent({
        model: 'gemini-3-pro-preview',
        contents: [
          question,
          unsignedEarlier,
          responses(1),
          { role: 'model', parts: [{ text: 'Oslo is 3C.' }] },
          { role: 'user', parts: [{ text: 'And Paris and Rome?' }] },
          {
            role: 'model',
            parts: [
              {
                functionCall: { name: 'get_weather', args: { city: 'Paris' } },
                thoughtSignature: placeholder,
              },
              { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
            ],
          },
          responses(2),
        ],
        config: { tools: [weatherTool] },
      });
  });

  test('older models take unsigned calls', async () => {
    await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: [
        question,
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        responses(1),
      ],
      config: { tools: [weatherTool] },
    });
  });

  test.each([
    ['made up', 'c2lnbmF0dXJl'],
    ['issued by another vendor', 'EqQBCkYIBhgCIkB'],
    ['altered', issueThoughtSignature('reply:call').replace(/^./, 'A')],
    ['marked by a gateway', `gemini:${issueThoughtSignature('reply:call')}`],
  ])('any model refuses a signature it did not issue (%s)', async (_kind, signature) => {
    const error = await failure(
      client.models.generateContent({
        model: 'gemini-2.5-pro',
        contents: [
          question,
          { role: 'model', parts: [{ text: 'Sure.', thoughtSignature: signature }] },
          { role: 'user', parts: [{ text: 'Well?' }] },
        ],
      }),
    );
    const wire = wireError(error);
    expect(wire.code).toBe(400);
    expect(wire.status).toBe('INVALID_ARGUMENT');
    // A signature that is not base64 fails to parse before it is checked.
    if (signature.includes(':')) expect(wire.message).toContain('Base64 decoding failed');
    else expect(wire.message).toBe('Corrupted thought signature.');
  });

  test('thoughts carry a signature when thinking is asked for; none when a 2.5 budget is zero', async () => {
    const thinking = await client.models.generateContent({
      model: 'gemini-2.5-pro',
      contents: 'hi',
      config: { thinkingConfig: { includeThoughts: true } },
    });
    const parts = thinking.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]).toMatchObject({ thought: true, thoughtSignature: expect.any(String) });
    expect(parts[1]).toMatchObject({ text: 'Hello from fake Gemini.', thoughtSignature: expect.any(String) });

    const plain = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hi',
      config: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect(plain.candidates?.[0]?.content?.parts).toEqual([{ text: 'Hello from fake Gemini.' }]);
  });
});

describe('reply overrides', () => {
  test('toolCallCount: several calls in one content, the first one signed (JSON and stream)', async () => {
    fake.script({ type: 'reply', toolCallCount: 3 });
    const json = await client.models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: [question],
      config: { tools: [weatherTool] },
    });
    const parts = json.candidates?.[0]?.content?.parts ?? [];
    expect(parts.map((part) => [part.functionCall?.name, part.thoughtSignature !== undefined])).toEqual([
      ['get_weather', true],
      ['get_weather', false],
      ['get_weather', false],
    ]);

    fake.script({ type: 'reply', toolCallCount: 2 });
    const stream = await client.models.generateContentStream({
      model: 'gemini-3-pro-preview',
      contents: [question],
      config: { tools: [weatherTool] },
    });
    const streamed: unknown[] = [];
    for await (const chunk of stream)
      for (const part of chunk.candidates?.[0]?.content?.parts ?? [])
        streamed.push([part.functionCall?.name, part.thoughtSignature !== undefined]);
    expect(streamed).toEqual([
      ['get_weather', true],
      ['get_weather', false],
    ]);
  });

  test('refusal: a SAFETY finish with its ratings and no content (JSON and stream)', async () => {
    fake.script({ type: 'reply', refusal: true });
    const json = await client.models.generateContent({ model: 'gemini-2.5-pro', contents: 'hi' });
    expect(json.text).toBeUndefined();
    expect(json.candidates?.[0]).toMatchObject({
      finishReason: 'SAFETY',
      safetyRatings: expect.arrayContaining([
        { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true },
      ]),
    });
    expect(json.candidates?.[0]?.content).toBeUndefined();

    fake.script({ type: 'reply', refusal: true });
    const stream = await client.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'hi' });
    const finishes: unknown[] = [];
    for await (const chunk of stream) finishes.push(chunk.candidates?.[0]?.finishReason);
    expect(finishes).toEqual(['SAFETY']);
  });

  test('an error mid-stream is a chunk holding the error body, raised by the SDK as an ApiError', async () => {
    fake.script({ type: 'error-mid-stream', afterChunks: 1, message: 'The model is overloaded.' });
    const stream = await client.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'hi' });
    const error = await failure(
      (async () => {
        for await (const _chunk of stream);
      })(),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).message).toContain('The model is overloaded.');
  });
});
