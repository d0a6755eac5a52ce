import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { Usage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { decodeInPieces, expectStreamGrammar, fixtureText, serveOnce } from './helpers.js';

const usage: Usage = {
  inputTokens: 2095,
  cacheReadTokens: 1800,
  cacheWriteTokens: 0,
  outputTokens: 120,
  reasoningTokens: 40,
  webSearchCalls: 0,
  estimated: false,
};

/** What the Anthropic stream decoder hands over: signed thinking, text, two tool calls. */
const anthropicEvents: StreamEvent[] = [
  {
    type: 'response-start',
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    model: 'claude-sonnet-4-20250514',
    created: 1752150000,
  },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Two cities, ' },
  { type: 'reasoning-delta', index: 0, text: 'two calls.' },
  { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkgIARABGAIiQ' } },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Checking both.' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'toolu_01A', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'tool-call-start', index: 3, id: 'toolu_01B', name: 'get_weather' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":"Lyon"}' },
  { type: 'tool-call-end', index: 3 },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
];

function encode(
  events: readonly StreamEvent[],
  options: { includeUsage?: boolean; losses?: LossLog } = {},
): string {
  const encoder = openAIChatCodec.createStreamEncoder({
    losses: options.losses ?? new LossLog(),
    estimatedInputTokens: 100,
    model: 'claude-sonnet-4',
    includeUsage: options.includeUsage,
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

function decodeFixture(name: string): StreamEvent[] {
  const bytes = new TextEncoder().encode(fixtureText(name));
  return decodeInPieces(openAIChatCodec.createStreamDecoder(new LossLog()), bytes, []);
}

async function withClient<T>(body: string, use: (client: OpenAI) => Promise<T>): Promise<T> {
  const server = await serveOnce(body, 'text/event-stream; charset=utf-8');
  try {
    return await use(new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

const params = { model: 'claude-sonnet-4', messages: [{ role: 'user' as const, content: 'Weather?' }] };

describe('encodeStream', () => {
  test('the chunks of a reply with thinking, text and parallel tool calls, usage asked for', () => {
    const losses = new LossLog();
    expect(encode(anthropicEvents, { includeUsage: true, losses })).toMatchInlineSnapshot(`
      "data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"reasoning_content":"Two cities, "},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"reasoning_content":"two calls."},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"content":"Checking both."},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"toolu_01A","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"toolu_01B","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\\"city\\":\\"Lyon\\"}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{"reasoning_details":[{"type":"reasoning.text","text":"Two cities, two calls.","signature":"EqQBCkgIARABGAIiQ","format":"anthropic-claude-v1","index":0}]},"logprobs":null,"finish_reason":null}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}

      data: {"id":"chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL","object":"chat.completion.chunk","created":1752150000,"model":"claude-sonnet-4","choices":[],"usage":{"prompt_tokens":2095,"completion_tokens":120,"total_tokens":2215,"prompt_tokens_details":{"cached_tokens":1800},"completion_tokens_details":{"reasoning_tokens":40}}}

      data: [DONE]

      "
    `);
    expect(losses.losses).toEqual([]);
  });

  test('without include_usage: no usage field, no usage chunk', () => {
    const text = encode(anthropicEvents);
    expect(text).not.toContain('"usage"');
    expect(text).not.toContain('"choices":[]');
    expect(text.endsWith('"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n')).toBe(true);
  });

  test.each([true, false])('the openai SDK reads every chunk (include_usage %s)', async (includeUsage) => {
    const chunks = await withClient(encode(anthropicEvents, { includeUsage }), async (client) => {
      const collected: OpenAI.Chat.ChatCompletionChunk[] = [];
      for await (const chunk of await client.chat.completions.create({ ...params, stream: true }))
        collected.push(chunk);
      return collected;
    });
    expect(chunks.every((chunk) => chunk.id === 'chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL')).toBe(true);
    expect(chunks.every((chunk) => chunk.model === 'claude-sonnet-4')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    const reasoning = chunks.map(
      (chunk) =>
        (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '',
    );
    expect(reasoning.join('')).toBe('Two cities, two calls.');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Checking both.');
    const finishes = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.finish_reason ?? []));
    expect(finishes).toEqual(['tool_calls']);
    const usageChunks = chunks.filter((chunk) => chunk.usage);
    if (includeUsage) {
      expect(usageChunks).toHaveLength(1);
      expect(usageChunks[0]?.choices).toEqual([]);
      expect(usageChunks[0]?.usage).toEqual({
        prompt_tokens: 2095,
        completion_tokens: 120,
        total_tokens: 2215,
        prompt_tokens_details: { cached_tokens: 1800 },
        completion_tokens_details: { reasoning_tokens: 40 },
      });
    } else expect(usageChunks).toEqual([]);
  });

  test('the SDK’s stream helper assembles the tool calls into the final completion', async () => {
    const final = await withClient(encode(anthropicEvents, { includeUsage: true }), (client) =>
      client.chat.completions.stream({ ...params, stream: true }).finalChatCompletion(),
    );
    const [choice] = final.choices;
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Checking both.');
    expect(choice?.message.tool_calls).toEqual([
      { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } },
    ]);
    expect(final.usage?.completion_tokens).toBe(120);
  });

  test.each([
    'stream-text.txt',
    'stream-tool-calls.txt',
    'stream-tool-calls-interleaved.txt',
    'stream-deepseek-reasoning.txt',
  ])('events decoded from %s survive encode -> SDK and encode -> decode', async (name) => {
    const events = decodeFixture(name);
    const text = encode(events, { includeUsage: true });
    const final = await withClient(text, (client) =>
      client.chat.completions.stream({ ...params, stream: true }).finalChatCompletion(),
    );
    const textOf = (type: 'text-delta' | 'reasoning-delta') =>
      events.flatMap((event) => (event.type === type ? [event.text] : [])).join('');
    expect(final.choices[0]?.message.content ?? '').toBe(textOf('text-delta'));
    const calls = events.flatMap((event) => (event.type === 'tool-call-start' ? [event.id] : []));
    expect(final.choices[0]?.message.tool_calls?.map((call) => call.id) ?? []).toEqual(calls);
    // The stream helper keeps only the last piece of fields it does not know, so read reasoning chunk by chunk.
    const reasoning = await withClient(text, async (client) => {
      let joined = '';
      for await (const chunk of await client.chat.completions.create({ ...params, stream: true }))
        joined +=
          (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
      return joined;
    });
    expect(reasoning).toBe(textOf('reasoning-delta'));

    const again = decodeInPieces(
      openAIChatCodec.createStreamDecoder(new LossLog()),
      new TextEncoder().encode(text),
      [],
    );
    expectStreamGrammar(again);
    const withoutIdsAndRaw = (list: StreamEvent[]) =>
      list.map((event) => {
        if (event.type === 'response-start') return { ...event, id: '', model: '' };
        if (event.type === 'finish')
          return { ...event, usage: event.usage && { ...event.usage, raw: undefined } };
        return event;
      });
    expect(withoutIdsAndRaw(again)).toEqual(withoutIdsAndRaw(events));
  });

  test('an error event becomes `data: {"error": ...}`, which the SDK throws, and nothing follows it', async () => {
    const encoder = openAIChatCodec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 1,
      model: 'm',
    });
    const text =
      encoder.push(anthropicEvents[0]!) +
      encoder.push({ type: 'text-start', index: 0 }) +
      encoder.push({ type: 'text-delta', index: 0, text: 'Hel' }) +
      encoder.push({
        type: 'error',
        message: 'the upstream stream broke off: socket hang up',
        code: 'upstream_error',
      }) +
      encoder.push({ type: 'text-delta', index: 0, text: 'lo' }) +
      encoder.end();
    expect(text.split('\n\n').at(-2)).toBe(
      'data: {"error":{"message":"the upstream stream broke off: socket hang up","type":"gateway_api_error","param":null,"code":"upstream_error"}}',
    );
    const seen: string[] = [];
    const failure = await withClient(text, async (client) => {
      try {
        for await (const chunk of await client.chat.completions.create({ ...params, stream: true }))
          seen.push(chunk.choices[0]?.delta.content ?? '');
      } catch (error) {
        return error;
      }
      return undefined;
    });
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('socket hang up');
    expect(seen).toEqual(['', 'Hel']);
  });

  test('a stream that ends without finish still closes with a finish chunk and [DONE] (recorded)', () => {
    const losses = new LossLog();
    const text = encode(anthropicEvents.slice(0, 7), { losses });
    expect(text.endsWith('"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')).toBe(true);
    expect(losses.losses).toContainEqual({
      path: 'finish_reason',
      kind: 'coerced',
      reason: 'the stream ended without a finish; it goes as stop',
    });
  });

  test('a trailing usage event after finish is what the usage chunk reports', () => {
    const events: StreamEvent[] = [
      anthropicEvents[0]!,
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' } },
      { type: 'usage', usage: { ...usage, outputTokens: 7 } },
    ];
    const text = encode(events, { includeUsage: true });
    expect(text).toContain('"choices":[],"usage":{"prompt_tokens":2095,"completion_tokens":7');
  });

  test('tool call indexes count from 0 per call, whatever the canonical block index', () => {
    const text = encode([
      anthropicEvents[0]!,
      { type: 'text-start', index: 0 },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 7, id: 'call_x', name: 'f' },
      { type: 'tool-call-delta', index: 7, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 7 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' } },
    ]);
    expect(text).toContain(
      '"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"f","arguments":""}}]',
    );
    expect(text).toContain('"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]');
    // A Gemini-style `STOP` with calls in the reply goes out as `tool_calls`, what chat clients look for.
    expect(text).toContain('"finish_reason":"tool_calls"');
  });
});

describe('encodeStream on repeated pieces of text', () => {
  // A text of each kind JSON escapes differently: quotes and backslashes, controls, a line
  // separator, characters outside the BMP, a lone surrogate, nothing.
  const pieces = ['Hel', 'lo "w\\or"ld"', '\n\t\u0001', '\u2028 ☃ 😀', '\ud800', '', 'end'];
  const chunk = (id: string, delta: object, includeUsage: boolean) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created: 1752150000,
      model: 'claude-sonnet-4',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
      ...(includeUsage && { usage: null }),
    })}\n\n`;

  for (const includeUsage of [false, true]) {
    test(`each chunk is the one built and serialised whole${includeUsage ? ', usage asked for' : ''}`, () => {
      const encoder = openAIChatCodec.createStreamEncoder({
        losses: new LossLog(),
        estimatedInputTokens: 100,
        model: 'claude-sonnet-4',
        includeUsage,
      });
      const opening = encoder.push(anthropicEvents[0]!);
      const id = (JSON.parse(opening.slice('data: '.length)) as { id: string }).id;
      encoder.push({ type: 'reasoning-start', index: 0 });
      encoder.push({ type: 'text-start', index: 1 });
      for (const text of pieces) {
        expect(encoder.push({ type: 'text-delta', index: 1, text })).toBe(
          chunk(id, { content: text }, includeUsage),
        );
        expect(encoder.push({ type: 'reasoning-delta', index: 0, text })).toBe(
          chunk(id, { reasoning_content: text }, includeUsage),
        );
      }
      encoder.push({ type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' });
      expect(encoder.push({ type: 'text-delta', index: 1, text: 'after a call' })).toBe(
        chunk(id, { content: 'after a call' }, includeUsage),
      );
    });
  }

  test('the first piece of a stream without response-start opens it, and the next are its own chunks', () => {
    const encoder = openAIChatCodec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 100,
      model: 'claude-sonnet-4',
    });
    const first = encoder.push({ type: 'text-delta', index: 0, text: 'a' }).split('\n\n');
    expect(first).toHaveLength(3);
    const id = (JSON.parse(first[0]!.slice('data: '.length)) as { id: string }).id;
    const created = (JSON.parse(first[0]!.slice('data: '.length)) as { created: number }).created;
    const expected = (text: string) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: 'claude-sonnet-4',
        choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
      })}\n\n`;
    expect(`${first[1]}\n\n`).toBe(expected('a'));
    expect(encoder.push({ type: 'text-delta', index: 0, text: 'b' })).toBe(expected('b'));
    expect(encoder.push({ type: 'text-delta', index: 0, text: 'c"' })).toBe(expected('c"'));
  });
});
