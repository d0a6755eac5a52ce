import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REDACTED_THINKING_TRIGGER, signThinking } from '../fakes/anthropic-messages-reply.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';

const apiKey = 'sk-validation';
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const weather: Anthropic.Tool = {
  name: 'get_weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Sampling settings the API takes, though the SDK's `MessageCreateParamsBase` no longer lists them. */
const sampling = (values: { temperature?: number; top_k?: number }) => values as Record<string, never>;

let fake: FakeUpstream;
let client: Anthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey });
  client = new Anthropic({ apiKey, baseURL: fake.origin, maxRetries: 0 });
});
afterAll(() => fake.close());

describe('the fake takes what the @anthropic-ai/sdk sends', () => {
  test('system blocks with a cache marker, a mid-conversation system message, images, documents and sampling', async () => {
    const message = await client.messages.create({
      model: 'claude-sonnet-4',
      max_tokens: 100,
      system: [
        { type: 'text', text: 'Be terse.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Answer in English.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What are these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
          ],
        },
        { role: 'assistant', content: 'Two pictures and two documents.' },
        { role: 'system', content: 'From now on, answer in French.' },
        { role: 'user', content: 'Thanks.' },
      ],
      ...sampling({ temperature: 0.3, top_k: 5 }),
      stop_sequences: ['END'],
    });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from fake Anthropic.' });
  });

  test('thinking, tool use and tool results, streamed', async () => {
    const stream = client.messages.stream({
      model: 'claude-sonnet-4',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [weather, { type: 'web_search_20250305', name: 'web_search' }],
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two cities.', signature: signThinking('Two cities.') },
            { type: 'text', text: 'Looking both up.' },
            { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_b', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_b', content: '24C' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_a',
              content: [{ type: 'text', text: '18C' }],
              is_error: false,
            },
            { type: 'text', text: 'Which is warmer?' },
          ],
        },
      ],
    });
    const message = await stream.finalMessage();
    expect(message.content[0]?.type).toBe('thinking');
  });

  test('adaptive thinking with temperature 1, and thinking switched off', async () => {
    await client.messages.create({
      model: 'claude-opus-4',
      max_tokens: 100,
      thinking: { type: 'adaptive' },
      ...sampling({ temperature: 1 }),
      messages: [{ role: 'user', content: 'hi' }],
    });
    await client.messages.create({
      model: 'claude-opus-4',
      max_tokens: 100,
      thinking: { type: 'disabled' },
      ...sampling({ temperature: 0 }),
      tool_choice: { type: 'tool', name: 'get_weather' },
      tools: [weather],
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});

const user = { role: 'user', content: 'hi' };
const base = { model: 'm', max_tokens: 100 };
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

const refusals: [string, Record<string, unknown>, string][] = [
  ['model is required', { max_tokens: 1, messages: [user] }, 'model: Field required'],
  ['max_tokens is required', { model: 'm', messages: [user] }, 'max_tokens: Field required'],
  [
    'max_tokens is positive',
    { ...base, max_tokens: 0, messages: [user] },
    'max_tokens: Input should be greater than or equal to 1',
  ],
  [
    'max_tokens is an integer',
    { ...base, max_tokens: 1.5, messages: [user] },
    'max_tokens: Input should be a valid integer',
  ],
  ['messages are required', { ...base }, 'messages: Field required'],
  ['messages are not empty', { ...base, messages: [] }, 'messages: at least one message is required'],
  [
    'roles are user, assistant or system',
    { ...base, messages: [{ role: 'tool', content: '18C' }] },
    "messages.0.role: Input should be 'user', 'assistant' or 'system'",
  ],
  [
    'system messages hold text only',
    {
      ...base,
      messages: [
        user,
        { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://x/a.png' } }] },
      ],
    },
    "messages.1.content.0.type: Input should be 'text'",
  ],
  [
    'the first message is not a system message',
    { ...base, messages: [{ role: 'system', content: 'Be terse.' }, user] },
    'messages: first message must use the "user" role',
  ],
  [
    'the first message is the user’s',
    { ...base, messages: [{ role: 'assistant', content: 'Hello.' }, user] },
    'messages: first message must use the "user" role',
  ],
  [
    'messages have content',
    { ...base, messages: [{ role: 'user', content: [] }] },
    'messages.0: all messages must have non-empty content except for the optional final assistant message',
  ],
  [
    'content blocks are of known types',
    { ...base, messages: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] },
    "messages.0.content.0: Input tag 'input_text' found using 'type' does not match any of the expected tags",
  ],
  [
    'text blocks have text',
    { ...base, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
    'messages.0.content.0.text: Field required',
  ],
  [
    'text blocks are not empty',
    {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'hi' },
          ],
        },
      ],
    },
    'messages: text content blocks must be non-empty',
  ],
  [
    'a message’s text is not whitespace alone',
    { ...base, messages: [user, { role: 'assistant', content: [{ type: 'text', text: ' \n' }] }, user] },
    'messages: text content blocks must contain non-whitespace text',
  ],
  [
    'images are jpeg, png, gif or webp',
    {
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: 'PHN2Zz4=' } },
          ],
        },
      ],
    },
    "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
  ],
  [
    'tool_use blocks have an input object',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: '{}' }] },
      ],
    },
    'messages.1.content.0.tool_use.input: Input should be a valid dictionary',
  ],
  [
    'tool_use ids match the pattern',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [toolUse('call.1')] },
        { role: 'user', content: [toolResult('call.1')] },
      ],
    },
    "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
  ],
  [
    'tool_use blocks are the assistant’s',
    { ...base, messages: [{ role: 'user', content: [toolUse('toolu_1')] }] },
    'messages.0.content.0: `tool_use` blocks can only be in `assistant` messages',
  ],
  [
    'every tool_use is answered in the next message',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [toolUse('toolu_1'), toolUse('toolu_2')] },
        { role: 'user', content: [toolResult('toolu_1')] },
      ],
    },
    'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  ],
  [
    'tool results come first in that message',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [toolUse('toolu_1')] },
        { role: 'user', content: [{ type: 'text', text: 'Here:' }, toolResult('toolu_1')] },
      ],
    },
    'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
  ],
  [
    'a tool result answers a tool_use of the previous assistant turn',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: 'Sure.' },
        { role: 'user', content: [toolResult('toolu_9')] },
      ],
    },
    'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  ],
  [
    'thinking budgets are at least 1024 tokens',
    { ...base, thinking: { type: 'enabled', budget_tokens: 512 }, messages: [user] },
    'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
  ],
  [
    'thinking budgets are below max_tokens',
    { ...base, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [user] },
    '`max_tokens` must be greater than `thinking.budget_tokens`.',
  ],
  [
    'while thinking, temperature is 1 or unset',
    {
      ...base,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      temperature: 0.5,
      messages: [user],
    },
    '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode.',
  ],
  [
    'while thinking, top_k is unset',
    {
      ...base,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      top_k: 5,
      messages: [user],
    },
    '`top_k` must be unset when thinking is enabled.',
  ],
  [
    'while thinking, no forced tool use',
    {
      ...base,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'any' },
      messages: [user],
    },
    'Thinking may not be enabled when tool_choice forces tool use.',
  ],
  [
    'while thinking, a tool loop replays the calling turn’s thinking first',
    {
      ...base,
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        user,
        { role: 'assistant', content: [toolUse('toolu_1')] },
        { role: 'user', content: [toolResult('toolu_1')] },
      ],
    },
    'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
  ],
  [
    'while thinking, a tool loop replays the calling turn’s thinking first, even when text follows the results',
    {
      ...base,
      max_tokens: 4000,
      thinking: { type: 'adaptive' },
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'text', text: 'Calling.' }, toolUse('toolu_1')] },
        { role: 'user', content: [toolResult('toolu_1'), { type: 'text', text: 'Go on.' }] },
      ],
    },
    'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
  ],
  [
    'while adaptive thinking, no forced tool use',
    {
      ...base,
      thinking: { type: 'adaptive' },
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'f' },
      messages: [user],
    },
    'Thinking may not be enabled when tool_choice forces tool use.',
  ],
  [
    'thinking signatures are the API’s own',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig_forged' }] },
        user,
      ],
    },
    'messages.1.content.0: Invalid `signature` in `thinking` block',
  ],
  [
    'a signature belongs to its thinking text',
    {
      ...base,
      messages: [
        user,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Sure.' },
            { type: 'thinking', thinking: 'Edited.', signature: signThinking('Original.') },
          ],
        },
        user,
      ],
    },
    'messages.1.content.1: Invalid `signature` in `thinking` block',
  ],
  [
    'another vendor’s signature is refused',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 'gemini:CiQsig' }] },
        user,
      ],
    },
    'messages.1.content.0: Invalid `signature` in `thinking` block',
  ],
  [
    'an empty signature is refused',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: '' }] },
        user,
      ],
    },
    'messages.1.content.0: Invalid `signature` in `thinking` block',
  ],
  [
    'redacted thinking is the API’s own',
    {
      ...base,
      messages: [
        user,
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'openai-redacted:gAAAA' }] },
        user,
      ],
    },
    'messages.1.content.0: Invalid `data` in `redacted_thinking` block',
  ],
  [
    'a final assistant message does not end in whitespace',
    { ...base, messages: [user, { role: 'assistant', content: 'Here it is:\n' }] },
    'messages: final assistant content cannot end with trailing whitespace',
  ],
  [
    'whitespace-only text blocks are refused when nothing else is said',
    { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '  ' }] }] },
    'messages: text content blocks must contain non-whitespace text',
  ],
  [
    'temperature is at most 1',
    { ...base, temperature: 1.5, messages: [user] },
    'temperature: Input should be less than or equal to 1',
  ],
  [
    'tool names match the pattern',
    { ...base, tools: [{ name: 'get weather', input_schema: { type: 'object' } }], messages: [user] },
    "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
  ],
  [
    'tools have an input schema',
    { ...base, tools: [{ name: 'f' }], messages: [user] },
    'tools.0.custom.input_schema: Field required',
  ],
  [
    'input schemas are objects',
    { ...base, tools: [{ name: 'f', input_schema: { type: 'string' } }], messages: [user] },
    "tools.0.custom.input_schema.type: Input should be 'object'",
  ],
  [
    'tool names are unique',
    {
      ...base,
      tools: [
        { name: 'f', input_schema: { type: 'object' } },
        { name: 'f', input_schema: { type: 'object' } },
      ],
      messages: [user],
    },
    'tools: Tool names must be unique.',
  ],
  [
    'system is a string or text blocks',
    {
      ...base,
      system: [{ type: 'image', source: { type: 'url', url: 'https://x/a.png' } }],
      messages: [user],
    },
    "system.0.type: Input should be 'text'",
  ],
  [
    'at most four cache breakpoints',
    {
      ...base,
      system: [1, 2, 3, 4, 5].map((n) => ({
        type: 'text',
        text: `part ${n}`,
        cache_control: { type: 'ephemeral' },
      })),
      messages: [user],
    },
    'A maximum of 4 blocks with cache_control may be provided. Found 5.',
  ],
];

describe('the fake refuses what the API refuses, as a BadRequestError in the Anthropic shape', () => {
  test.each(refusals)('%s', async (_rule, body, message) => {
    const error = await client.post('/v1/messages', { body }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const refused = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((refused.error as { error: { message: string } }).error.message).toContain(message);
  });
});

describe('the fake signs its thinking and takes it back only as it issued it', () => {
  const tools = [weather];
  const question = { role: 'user' as const, content: 'Weather in Paris?' };

  test.each([false, true])(
    'a tool loop echoed with the issued thinking is accepted (stream: %s)',
    async (stream) => {
      const params = {
        model: 'claude-sonnet-4',
        max_tokens: 4096,
        thinking: { type: 'enabled' as const, budget_tokens: 2048 },
        tools,
        messages: [question],
      };
      const first = stream
        ? await client.messages.stream(params).finalMessage()
        : await client.messages.create(params);
      const thinking = first.content[0];
      expect(thinking).toMatchObject({
        type: 'thinking',
        signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      });
      const call = first.content.find((block) => block.type === 'tool_use');
      expect(call).toBeDefined();
      const second = await client.messages.create({
        ...params,
        messages: [
          question,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '18C' }] },
        ],
      });
      expect(second.stop_reason).toBe('tool_use');

      const dropped = await client.messages
        .create({
          ...params,
          messages: [
            question,
            { role: 'assistant', content: first.content.slice(1) },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '18C' }] },
          ],
        })
        .catch((error: unknown) => error);
      expect(dropped).toBeInstanceOf(Anthropic.BadRequestError);
      expect((dropped as Error).message).toContain(
        'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`.',
      );
    },
  );

  test('a prompt with Anthropic’s test string gets redacted thinking, which is accepted back', async () => {
    const params = {
      model: 'claude-sonnet-4',
      max_tokens: 4096,
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
      tools,
      messages: [{ role: 'user' as const, content: `Weather in Paris? ${REDACTED_THINKING_TRIGGER}` }],
    };
    const first = await client.messages.stream(params).finalMessage();
    expect(first.content[0]).toMatchObject({ type: 'redacted_thinking', data: expect.any(String) });
    const call = first.content.find((block) => block.type === 'tool_use')!;
    await client.messages.create({
      ...params,
      messages: [
        ...params.messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18C' }] },
      ],
    });
  });
});

describe('the fake replies as the API does to the reply overrides', () => {
  const params = {
    model: 'claude-sonnet-4',
    max_tokens: 1024,
    tools: [weather],
    messages: [{ role: 'user' as const, content: 'Paris, Rome, Oslo?' }],
  };

  test.each([false, true])(
    'toolCallCount: several tool_use blocks with distinct ids (stream: %s)',
    async (stream) => {
      fake.script({ type: 'reply', toolCallCount: 3 });
      const message = stream
        ? await client.messages.stream(params).finalMessage()
        : await client.messages.create(params);
      const calls = message.content.filter((block) => block.type === 'tool_use');
      expect(calls).toHaveLength(3);
      expect(new Set(calls.map((call) => call.id)).size).toBe(3);
      expect(calls.every((call) => call.name === 'get_weather')).toBe(true);
      expect(message.stop_reason).toBe('tool_use');
    },
  );

  test.each([false, true])('refusal: stop_reason refusal with its details (stream: %s)', async (stream) => {
    fake.script({ type: 'reply', refusal: true });
    const message = stream
      ? await client.messages.stream(params).finalMessage()
      : await client.messages.create(params);
    expect(message.stop_reason).toBe('refusal');
    expect(message.stop_details).toEqual({ type: 'refusal', category: null, explanation: null });
    expect(message.content).toEqual([]);
  });
});
