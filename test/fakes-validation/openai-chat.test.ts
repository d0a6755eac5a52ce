import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

const apiKey = 'sk-validation';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

let fake: FakeUpstream;
let client: OpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey });
  client = new OpenAI({ apiKey, baseURL: `${fake.origin}/v1`, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('the fake takes what the openai SDK sends', () => {
  test('system and developer prompts, sampling options', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in English.' }] },
        { role: 'user', content: 'hi', name: 'alice' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'again' },
      ],
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      n: 1,
      stop: ['END'],
      seed: 7,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object', properties: {} } },
      },
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from fake OpenAI.');
  });

  test('images, audio and files in a user message', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
      ],
      max_tokens: 50,
    });
  });

  test('tools, parallel tool calls and their results, streamed with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_b', content: '24C' },
        { role: 'tool', tool_call_id: 'call_a', content: [{ type: 'text', text: '18C' }] },
        { role: 'user', content: 'And tomorrow?' },
      ],
      tools: [weather],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: true,
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream) expect(chunk.object).toBe('chat.completion.chunk');
  });

  test('reasoning effort', async () => {
    await client.chat.completions.create({
      model: 'o3',
      messages: [{ role: 'user', content: 'Think.' }],
      reasoning_effort: 'high',
    });
  });
});

const user = { role: 'user', content: 'hi' };
const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });

/** Each rule, broken by one minimal body: [rule, body, the API's message, param]. */
const refusals: [string, Record<string, unknown>, string, string | null][] = [
  ['model is required', { messages: [user] }, 'you must provide a model parameter', null],
  ['messages are required', { model: 'm' }, "Missing required parameter: 'messages'.", 'messages'],
  ['messages are not empty', { model: 'm', messages: [] }, "Invalid 'messages': empty array.", 'messages'],
  [
    'roles are known',
    { model: 'm', messages: [{ role: 'bot', content: 'hi' }] },
    "Invalid value: 'bot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
    'messages[0].role',
  ],
  [
    'user content is a string or parts',
    { model: 'm', messages: [{ role: 'user', content: 42 }] },
    "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an integer instead.",
    'messages[0].content',
  ],
  [
    'user content is not null',
    { model: 'm', messages: [{ role: 'user', content: null }] },
    "Invalid value for 'content': expected a string, got null.",
    'messages[0].content',
  ],
  [
    'system messages hold text only',
    {
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x/a.png' } }] },
        user,
      ],
    },
    "Invalid value: 'image_url'. Supported values are: 'text'.",
    'messages[0].content[0].type',
  ],
  [
    'assistant parts are text or refusal',
    {
      model: 'm',
      messages: [user, { role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }, user],
    },
    "Invalid value: 'input_text'. Supported values are: 'text', and 'refusal'.",
    'messages[1].content[0].type',
  ],
  [
    'an assistant message has content or tool calls',
    { model: 'm', messages: [user, { role: 'assistant' }, user] },
    "Missing required parameter: 'messages[1].content'.",
    'messages[1].content',
  ],
  [
    'a tool call has an id',
    {
      model: 'm',
      messages: [
        user,
        { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{}' } }] },
      ],
    },
    "Missing required parameter: 'messages[1].tool_calls[0].id'.",
    'messages[1].tool_calls[0].id',
  ],
  [
    'a tool call is of type function',
    { model: 'm', messages: [user, { role: 'assistant', tool_calls: [{ ...call('c'), type: 'tool' }] }] },
    "Invalid value: 'tool'. Supported values are: 'function', and 'custom'.",
    'messages[1].tool_calls[0].type',
  ],
  [
    'tool call arguments are a string',
    {
      model: 'm',
      messages: [
        user,
        { role: 'assistant', tool_calls: [{ ...call('c'), function: { name: 'f', arguments: {} } }] },
      ],
    },
    "Invalid type for 'messages[1].tool_calls[0].function.arguments': expected a string, but got an object instead.",
    'messages[1].tool_calls[0].function.arguments',
  ],
  [
    'a tool call has a function name',
    {
      model: 'm',
      messages: [user, { role: 'assistant', tool_calls: [{ ...call('c'), function: { arguments: '{}' } }] }],
    },
    "Missing required parameter: 'messages[1].tool_calls[0].function.name'.",
    'messages[1].tool_calls[0].function.name',
  ],
  [
    'tool call ids are at most 40 characters',
    { model: 'm', messages: [user, { role: 'assistant', tool_calls: [call('x'.repeat(41))] }] },
    "Invalid 'messages[1].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 41 instead.",
    'messages[1].tool_calls[0].id',
  ],
  [
    'a tool message answers a call of the assistant message before it',
    { model: 'm', messages: [user, { role: 'tool', tool_call_id: 'c', content: 'x' }] },
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    'messages.[1].role',
  ],
  [
    'a tool message answers a call that was made',
    {
      model: 'm',
      messages: [
        user,
        { role: 'assistant', tool_calls: [call('c')] },
        { role: 'tool', tool_call_id: 'other', content: 'x' },
      ],
    },
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    'messages.[2].role',
  ],
  [
    'every tool call is answered before the next message',
    {
      model: 'm',
      messages: [
        user,
        { role: 'assistant', tool_calls: [call('a'), call('b')] },
        { role: 'tool', tool_call_id: 'a', content: 'x' },
        user,
      ],
    },
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: b",
    'messages.[3].role',
  ],
  [
    'tools are functions',
    { model: 'm', messages: [user], tools: [{ type: 'function', name: 'f' }] },
    "Missing required parameter: 'tools[0].function'.",
    'tools[0].function',
  ],
  [
    'tool names match the pattern',
    { model: 'm', messages: [user], tools: [{ type: 'function', function: { name: 'get weather' } }] },
    "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    'tools[0].function.name',
  ],
  [
    'tool parameters are an object schema',
    {
      model: 'm',
      messages: [user],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'OBJECT' } } }],
    },
    `Invalid schema for function 'f': schema must be a JSON Schema of 'type: "object"', got 'type: "OBJECT"'.`,
    'tools[0].function.parameters',
  ],
  [
    'tool_choice needs tools',
    { model: 'm', messages: [user], tool_choice: 'auto' },
    "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
    'tool_choice',
  ],
  [
    'max_tokens and max_completion_tokens not both',
    { model: 'm', messages: [user], max_tokens: 10, max_completion_tokens: 10 },
    "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.",
    'max_tokens',
  ],
  [
    'stream_options only when streaming',
    { model: 'm', messages: [user], stream_options: { include_usage: true } },
    "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
    'stream_options',
  ],
  [
    'n is at least 1',
    { model: 'm', messages: [user], n: 0 },
    "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    'n',
  ],
  [
    'n is at most 128',
    { model: 'm', messages: [user], n: 129 },
    "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead.",
    'n',
  ],
  [
    'temperature is at most 2',
    { model: 'm', messages: [user], temperature: 2.5 },
    "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.",
    'temperature',
  ],
  [
    'reasoning effort is a known level',
    { model: 'm', messages: [user], reasoning_effort: 'extreme' },
    "Invalid value: 'extreme'.",
    'reasoning_effort',
  ],
];

describe('the fake refuses what the API refuses, as a BadRequestError in the OpenAI shape', () => {
  test.each(refusals)('%s', async (_rule, body, message, param) => {
    const error = await client.post('/chat/completions', { body }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(refused.message).toContain(message);
    expect(Object.keys(refused.error as object).sort()).toEqual(['code', 'message', 'param', 'type']);
  });

  test('validation can be switched off for a test that sends odd bodies on purpose', async () => {
    const lenient = await startFakeOpenAI({ apiKey, validateRequests: false });
    try {
      const odd = new OpenAI({ apiKey, baseURL: `${lenient.origin}/v1`, maxRetries: 0 });
      await expect(
        odd.post('/chat/completions', { body: { model: 'm', messages: [] } }),
      ).resolves.toBeDefined();
      lenient.validateRequests(true);
      await expect(
        odd.post('/chat/completions', { body: { model: 'm', messages: [] } }),
      ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
      expect(lenient.requests[1]?.refused?.message).toContain("Invalid 'messages': empty array.");
    } finally {
      await lenient.close();
    }
  });
});

describe('the fake answers as OpenAI does', () => {
  const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
  const other = { type: 'function' as const, function: { name: 'get_time', parameters: { type: 'object' } } };

  test.each([
    ['a named function', { type: 'function', function: { name: 'get_weather' } } as const, 'stop'],
    ['required', 'required' as const, 'stop'],
    ['auto', 'auto' as const, 'tool_calls'],
  ])('tool_choice %s: the call, finishing %s', async (_name, toolChoice, finish) => {
    const completion = await client.chat.completions.create({
      ...ask,
      tools: [other, weather],
      tool_choice: toolChoice,
    });
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe(finish);
    const called = choice?.message.tool_calls?.[0];
    expect(called?.type === 'function' && called.function.name).toBe(
      typeof toolChoice === 'object' ? 'get_weather' : 'get_time',
    );
    const streamed = await client.chat.completions
      .stream({ ...ask, tools: [other, weather], tool_choice: toolChoice, stream: true })
      .finalChatCompletion();
    expect(streamed.choices[0]?.finish_reason).toBe(finish);
  });

  test('parallel calls (toolCallCount): distinct ids, the same arguments', async () => {
    fake.script({ type: 'reply', toolCallCount: 3 });
    const completion = await client.chat.completions.create({ ...ask, tools: [weather] });
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  test('interleaved argument deltas (interleaveToolCalls): the SDK assembles each call by index', async () => {
    fake.script({
      type: 'reply',
      toolCallCount: 2,
      interleaveToolCalls: true,
      toolArguments: '{"city":"Paris"}',
    });
    const stream = client.chat.completions.stream({ ...ask, tools: [weather], stream: true });
    const indexes: number[] = [];
    stream.on('chunk', (chunk) => {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) indexes.push(call.index);
    });
    const final = await stream.finalChatCompletion();
    expect(indexes).toEqual([0, 1, 0, 1, 0, 1]);
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => call.type === 'function' && call.function.arguments)).toEqual([
      '{"city":"Paris"}',
      '{"city":"Paris"}',
    ]);
    expect(calls[0]?.id).not.toBe(calls[1]?.id);
  });

  test('a refusal: message.refusal with content null, finishing stop; streamed as delta.refusal', async () => {
    fake.script({ type: 'reply', refusal: true }, { type: 'reply', refusal: true });
    const completion = await client.chat.completions.create({ ...ask, tools: [weather] });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: null, refusal: "I'm sorry, but I can't assist with that request." },
    });
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    const refusals: string[] = [];
    const stream = client.chat.completions.stream({ ...ask, stream: true });
    stream.on('chunk', (chunk) => refusals.push(chunk.choices[0]?.delta.refusal ?? ''));
    const final = await stream.finalChatCompletion();
    expect(refusals.join('')).toBe("I'm sorry, but I can't assist with that request.");
    expect(final.choices[0]?.message).toMatchObject({
      content: null,
      refusal: "I'm sorry, but I can't assist with that request.",
    });
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });
});

describe('strict structured outputs (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)', () => {
  const strictFormat = (schema: Record<string, unknown>) => ({
    type: 'json_schema' as const,
    json_schema: { name: 'answer', strict: true, schema },
  });
  const refusedWith = async (body: Record<string, unknown>) => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    return {
      message: (refused.error as { message: string }).message,
      param: (refused.error as { param: unknown }).param,
    };
  };

  test('an object without additionalProperties: false is refused', async () => {
    expect(
      await refusedWith({
        response_format: strictFormat({
          type: 'object',
          properties: { a: { type: 'string' } },
          required: ['a'],
        }),
      }),
    ).toEqual({
      message:
        "Invalid schema for response_format 'answer': In context=(), 'additionalProperties' is required to be supplied and to be false.",
      param: 'response_format',
    });
  });

  test('a property missing from required is refused, nested objects too', async () => {
    expect(
      await refusedWith({
        response_format: strictFormat({
          type: 'object',
          properties: {
            items: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: { type: 'string' }, role: { type: 'string' } },
                required: ['name'],
                additionalProperties: false,
              },
            },
          },
          required: ['items'],
          additionalProperties: false,
        }),
      }),
    ).toEqual({
      message:
        "Invalid schema for response_format 'answer': In context=('properties', 'items', 'items'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'role'.",
      param: 'response_format',
    });
  });

  test('strict function tools follow the same rules', async () => {
    expect(
      await refusedWith({ tools: [{ ...weather, function: { ...weather.function, strict: true } }] }),
    ).toEqual({
      message:
        "Invalid schema for function 'get_weather': In context=(), 'additionalProperties' is required to be supplied and to be false.",
      param: 'tools[0].function.parameters',
    });
  });

  test('a schema that follows the rules is taken; without strict, anything goes', async () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: strictFormat(schema),
      tools: [{ type: 'function', function: { name: 'f', parameters: schema, strict: true } }],
    });
    await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'loose', schema: { type: 'object' } } },
    });
  });
});
