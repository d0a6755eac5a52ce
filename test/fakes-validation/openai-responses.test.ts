import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

const apiKey = 'sk-validation';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const weather = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

let fake: FakeUpstream;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey });
  client = new OpenAI({ apiKey, baseURL: `${fake.origin}/v1`, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('the fake takes what the openai SDK sends to /v1/responses', () => {
  test('a string input with instructions', async () => {
    const response = await client.responses.create({
      model: 'gpt-5',
      instructions: 'Be terse.',
      input: 'hi',
      max_output_tokens: 16,
      temperature: 0.5,
    });
    expect(response.output_text).toBe('Hello from fake OpenAI.');
  });

  test('messages of every role, with images and files', async () => {
    await client.responses.create({
      model: 'gpt-5',
      input: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: [{ type: 'input_text', text: 'Answer in English.' }] },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
          ],
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'A pixel.', annotations: [] }],
        },
        { role: 'assistant', content: 'Plain text is fine too.' },
        { role: 'user', content: 'Thanks.' },
      ],
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: {} } } },
    });
  });

  test('reasoning, a function call and its output, streamed', async () => {
    const stream = client.responses.stream({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }] },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
      ],
      tools: [weather],
      tool_choice: 'auto',
      reasoning: { effort: 'high', summary: 'auto' },
    });
    const response = await stream.finalResponse();
    expect(response.status).toBe('completed');
  });
});

const user = { role: 'user', content: 'hi' };
const functionCall = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };

const refusals: [string, Record<string, unknown>, string, string | null][] = [
  ['model is required', { input: 'hi' }, "Missing required parameter: 'model'.", 'model'],
  [
    'input is a string or a list',
    { model: 'm', input: 42 },
    "Invalid type for 'input': expected one of a string or array of objects, but got an integer instead.",
    'input',
  ],
  [
    'item types are known',
    { model: 'm', input: [{ type: 'chat', content: 'hi' }] },
    "Invalid value: 'chat'.",
    'input[0].type',
  ],
  [
    'message roles are known',
    { model: 'm', input: [{ role: 'tool', content: 'hi' }] },
    "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'.",
    'input[0].role',
  ],
  [
    'input roles take input parts',
    { model: 'm', input: [{ role: 'user', content: [{ type: 'output_text', text: 'hi' }] }] },
    "Invalid value: 'output_text'. Supported values are: 'input_text', 'input_image', and 'input_file'.",
    'input[0].content[0].type',
  ],
  [
    'assistant messages take output parts',
    { model: 'm', input: [user, { role: 'assistant', content: [{ type: 'input_text', text: 'hi' }] }] },
    "Invalid value: 'input_text'. Supported values are: 'output_text', and 'refusal'.",
    'input[1].content[0].type',
  ],
  [
    'a function call has a call_id',
    { model: 'm', input: [user, { type: 'function_call', name: 'f', arguments: '{}' }] },
    "Missing required parameter: 'input[1].call_id'.",
    'input[1].call_id',
  ],
  [
    'a function call has a name',
    { model: 'm', input: [user, { type: 'function_call', call_id: 'c', arguments: '{}' }] },
    "Missing required parameter: 'input[1].name'.",
    'input[1].name',
  ],
  [
    'function call arguments are a string',
    { model: 'm', input: [user, { ...functionCall, arguments: {} }] },
    "Invalid type for 'input[1].arguments': expected a string, but got an object instead.",
    'input[1].arguments',
  ],
  [
    'a function call item id begins with fc',
    { model: 'm', input: [user, { ...functionCall, id: 'call_1' }] },
    "Invalid 'input[1].id': 'call_1'. Expected an ID that begins with 'fc'.",
    'input[1].id',
  ],
  [
    'a function call output answers an earlier function call',
    { model: 'm', input: [user, { type: 'function_call_output', call_id: 'call_9', output: 'x' }] },
    'No tool call found for function call output with call_id call_9.',
    'input',
  ],
  [
    'a reasoning item has a summary',
    { model: 'm', input: [user, { type: 'reasoning', id: 'rs_1' }, functionCall] },
    "Missing required parameter: 'input[1].summary'.",
    'input[1].summary',
  ],
  [
    'a reasoning item has an id',
    { model: 'm', input: [user, { type: 'reasoning', summary: [] }, functionCall] },
    "Missing required parameter: 'input[1].id'.",
    'input[1].id',
  ],
  [
    'a reasoning item is followed by what it led to',
    { model: 'm', input: [user, { type: 'reasoning', id: 'rs_1', summary: [] }] },
    "Item 'rs_1' of type 'reasoning' was provided without its required following item.",
    'input',
  ],
  [
    'function tools are flat',
    { model: 'm', input: 'hi', tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] },
    "Missing required parameter: 'tools[0].name'.",
    'tools[0].name',
  ],
  [
    'function tool names match the pattern',
    { model: 'm', input: 'hi', tools: [{ type: 'function', name: 'get.weather', parameters: {} }] },
    "Invalid 'tools[0].name': string does not match pattern.",
    'tools[0].name',
  ],
  [
    'max_output_tokens is at least 16',
    { model: 'm', input: 'hi', max_output_tokens: 10 },
    "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
    'max_output_tokens',
  ],
  [
    'a JSON schema text format is flat and named',
    {
      model: 'm',
      input: 'hi',
      text: { format: { type: 'json_schema', json_schema: { name: 'a', schema: {} } } },
    },
    "Missing required parameter: 'text.format.schema'.",
    'text.format.schema',
  ],
];

describe('the fake refuses what /v1/responses refuses, as a BadRequestError in the OpenAI shape', () => {
  test.each(refusals)('%s', async (_rule, body, message, param) => {
    const error = await client.post('/responses', { body }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(refused.message).toContain(message);
  });

  test('with a stored conversation, outputs may answer calls of an earlier response', async () => {
    await client.responses.create({
      model: 'm',
      previous_response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_9', output: 'x' }],
    });
  });
});

describe('encrypted reasoning: the fake issues it and verifies what comes back, as OpenAI does', () => {
  const question = { role: 'user' as const, content: 'Weather in Paris?' };

  test('with store: false or include, reasoning items carry encrypted content; by default they do not', async () => {
    const unstored = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      reasoning: { effort: 'low' },
      store: false,
    });
    const included = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
    });
    const stored = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      reasoning: { effort: 'low' },
    });
    const encrypted = (response: OpenAI.Responses.Response) =>
      response.output.flatMap((item) => (item.type === 'reasoning' ? [item.encrypted_content] : []));
    expect(encrypted(unstored)).toEqual([expect.stringMatching(/^[A-Za-z0-9+/]+=*$/)]);
    expect(encrypted(included)).toEqual([expect.any(String)]);
    expect(encrypted(stored)).toEqual([undefined]);
  });

  test('a streamed reasoning item gets its encrypted content at its end', async () => {
    const stream = client.responses.stream({
      model: 'gpt-5',
      input: 'hi',
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
    });
    const added: unknown[] = [];
    stream.on('response.output_item.added', (event) => {
      if (event.item.type === 'reasoning') added.push(event.item.encrypted_content);
    });
    const response = await stream.finalResponse();
    expect(added).toEqual([undefined]);
    expect(response.output[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
  });

  test('the reasoning item it issued is taken back, under its id or another', async () => {
    const first = await client.responses.create({
      model: 'gpt-5',
      input: [question],
      reasoning: { effort: 'low' },
      tools: [weather],
      store: false,
    });
    const [reasoning, call] = first.output;
    expect(reasoning?.type).toBe('reasoning');
    expect(call?.type).toBe('function_call');
    const output = call?.type === 'function_call' ? call.call_id : '';
    for (const item of [reasoning, { ...reasoning, id: 'rs_renamed' }]) {
      await client.responses.create({
        model: 'gpt-5',
        input: [
          question,
          item as OpenAI.Responses.ResponseReasoningItem,
          call as OpenAI.Responses.ResponseFunctionToolCall,
          { type: 'function_call_output', call_id: output, output: '18C' },
        ],
        tools: [weather],
        store: false,
      });
    }
  });

  test.each([
    ['a marked token of another vendor', 'anthropic:EqQBCkYIBxgCKkDs'],
    ['a Gemini signature', 'gemini:CiQBthought=='],
    ['a made-up value', 'gAAAAABo2TA-encrypted=='],
  ])('%s is refused: could not be verified', async (_case, encrypted) => {
    const error = await client.responses
      .create({
        model: 'gpt-5',
        input: [
          question,
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: encrypted },
          { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        ],
        tools: [weather],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.error).toEqual({
      message: 'The encrypted content for item rs_1 could not be verified.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_encrypted_content',
    });
  });
});

describe('reply overrides in the Responses shape', () => {
  test('toolCallCount: several function_call items with their own ids, in JSON and streams', async () => {
    fake.script({ type: 'reply', toolCallCount: 3 }, { type: 'reply', toolCallCount: 2 });
    const response = await client.responses.create({ model: 'gpt-5', input: 'hi', tools: [weather] });
    const calls = response.output.filter((item) => item.type === 'function_call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.call_id)).size).toBe(3);
    expect(response.status).toBe('completed');
    const streamed = await client.responses
      .stream({ model: 'gpt-5', input: 'hi', tools: [weather] })
      .finalResponse();
    expect(streamed.output.map((item) => item.type)).toEqual(['function_call', 'function_call']);
  });

  test('refusal: the message holds a refusal part, in JSON and streams', async () => {
    fake.script({ type: 'reply', refusal: true }, { type: 'reply', refusal: true });
    const response = await client.responses.create({ model: 'gpt-5', input: 'hi' });
    expect(response.status).toBe('completed');
    expect(response.output).toMatchObject([
      { type: 'message', content: [{ type: 'refusal', refusal: "I'm sorry, but I can't help with that." }] },
    ]);
    const stream = client.responses.stream({ model: 'gpt-5', input: 'hi' });
    const deltas: string[] = [];
    stream.on('response.refusal.delta', (event) => deltas.push(event.delta));
    const streamed = await stream.finalResponse();
    expect(deltas.join('')).toBe("I'm sorry, but I can't help with that.");
    expect(streamed.output).toMatchObject([{ type: 'message', content: [{ type: 'refusal' }] }]);
  });

  test('a forced tool choice is answered with a call of that function, completed', async () => {
    const other = { ...weather, name: 'get_time' };
    fake.script({ type: 'reply', toolCall: false });
    const response = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      tools: [weather, other],
      tool_choice: { type: 'function', name: 'get_time' },
    });
    expect(response.status).toBe('completed');
    expect(response.output).toMatchObject([{ type: 'function_call', name: 'get_time', status: 'completed' }]);
    const required = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      tools: [weather],
      tool_choice: 'required',
    });
    expect(required.output).toMatchObject([{ type: 'function_call', name: 'get_weather' }]);
    const none = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      tools: [weather],
      tool_choice: 'none',
    });
    expect(none.output).toMatchObject([{ type: 'message' }]);
  });
});

describe('strict structured output takes only closed, fully required objects', () => {
  const format = (schema: Record<string, unknown>) => ({
    format: { type: 'json_schema' as const, name: 'answer', strict: true, schema },
  });

  test.each([
    [
      'an object without additionalProperties: false',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      "Invalid schema for response_format 'answer': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    ],
    [
      'a property that is not required',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      },
      "Invalid schema for response_format 'answer': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.",
    ],
    [
      'a nested open object',
      {
        type: 'object',
        properties: {
          place: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
        required: ['place'],
        additionalProperties: false,
      },
      "Invalid schema for response_format 'answer': In context=('properties', 'place'), 'additionalProperties' is required to be supplied and to be false.",
    ],
  ])('%s is refused', async (_case, schema, message) => {
    const error = await client.responses
      .create({ model: 'gpt-5', input: 'hi', text: format(schema) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message,
      type: 'invalid_request_error',
      param: 'text.format.schema',
      code: 'invalid_json_schema',
    });
  });

  test('a closed, fully required schema is taken; without strict an open one is too', async () => {
    await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      text: format({
        type: 'object',
        properties: { a: { type: 'array', items: { type: 'string' } } },
        required: ['a'],
        additionalProperties: false,
      }),
    });
    await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: {} } } },
    });
  });
});
