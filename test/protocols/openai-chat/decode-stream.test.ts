import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { startFakeOpenAI } from '../../fakes/fake-openai.js';
import type { FakeUpstream } from '../../fakes/fake-upstream.js';
import { parsedWhile } from '../../helpers/parsed-while.js';
import { decodeInPieces, expectStreamGrammar, fixtureText } from './helpers.js';

const streamFixtures = [
  'stream-text.txt',
  'stream-tool-calls.txt',
  'stream-tool-calls-interleaved.txt',
  'stream-deepseek-reasoning.txt',
  'stream-error.txt',
  'stream-cut-off.txt',
];

function decodeWhole(text: string, losses = new LossLog()): StreamEvent[] {
  return decodeInPieces(openAIChatCodec.createStreamDecoder(losses), new TextEncoder().encode(text), []);
}

/** SSE text from chunk objects, as an upstream writes them. */
function sse(...chunks: unknown[]): string {
  return chunks
    .map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`)
    .join('');
}

const delta = (value: Record<string, unknown>, finish: string | null = null, index = 0) => ({
  id: 'chatcmpl-t',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index, delta: value, finish_reason: finish }],
});

describe('stream fixtures', () => {
  test('stream-text.txt: text deltas, finish with the usage of the usage-only chunk', () => {
    const events = decodeWhole(fixtureText('stream-text.txt'));
    expect(events[0]).toEqual({
      type: 'response-start',
      id: 'chatcmpl-BtR2mYkq8sVd0uFh3LwPz6nJcEoXa',
      model: 'gpt-4o-2024-08-06',
      created: 1752150400,
    });
    expect(events[1]).toEqual({ type: 'text-start', index: 0 });
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(text).toBe('Paris has the Eiffel Tower — 埃菲尔铁塔 🗼.');
    expect(events.at(-2)).toEqual({ type: 'text-end', index: 0 });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 19, outputTokens: 10, cacheReadTokens: 0, reasoningTokens: 0, estimated: false },
    });
    expect(events).toHaveLength(14);
  });

  test('stream-tool-calls.txt: two calls, each started with its id and name, arguments in pieces, open until the finish', () => {
    expect(decodeWhole(fixtureText('stream-tool-calls.txt'))).toMatchInlineSnapshot(`
      [
        {
          "created": 1752150600,
          "id": "chatcmpl-BtR5cUx1TzoQn7H2mWb9yKfLsD4aE",
          "model": "gpt-4.1-2025-04-14",
          "type": "response-start",
        },
        {
          "id": "call_8uPe1mXkR2yQz3",
          "index": 0,
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"ci",
          "index": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "ty":",
          "index": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": " "Par",
          "index": 0,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": "is"}",
          "index": 0,
          "type": "tool-call-delta",
        },
        {
          "id": "call_Qm4hT7bNw9LsA1",
          "index": 1,
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city"",
          "index": 1,
          "type": "tool-call-delta",
        },
        {
          "argumentsDelta": ": "Lyon"}",
          "index": 1,
          "type": "tool-call-delta",
        },
        {
          "index": 0,
          "type": "tool-call-end",
        },
        {
          "index": 1,
          "type": "tool-call-end",
        },
        {
          "finishReason": {
            "raw": "tool_calls",
            "unified": "tool-calls",
          },
          "type": "finish",
        },
      ]
    `);
  });

  test('stream-tool-calls-interleaved.txt: argument pieces of two calls interleave; each call gets its own', () => {
    const events = decodeWhole(fixtureText('stream-tool-calls-interleaved.txt'));
    expectStreamGrammar(events);
    const starts = events.flatMap((event) => (event.type === 'tool-call-start' ? [event] : []));
    const argumentsOf = (index: number) =>
      events
        .flatMap((event) =>
          event.type === 'tool-call-delta' && event.index === index ? [event.argumentsDelta] : [],
        )
        .join('');
    expect(starts.map((start) => [start.id, argumentsOf(start.index)])).toEqual([
      ['call_Vx3kP9mQ2rT7aL', '{"city": "Paris"}'],
      ['call_Hy8nB4cW6sJ1eD', '{"city": "Lyon"}'],
    ]);
    expect(events.map((event) => `${event.type}${'index' in event ? `:${event.index}` : ''}`))
      .toMatchInlineSnapshot(`
        [
          "response-start",
          "tool-call-start:0",
          "tool-call-start:1",
          "tool-call-delta:0",
          "tool-call-delta:1",
          "tool-call-delta:0",
          "tool-call-delta:1",
          "tool-call-delta:0",
          "tool-call-delta:1",
          "tool-call-end:0",
          "tool-call-end:1",
          "finish",
        ]
      `);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { inputTokens: 82, outputTokens: 51 },
    });
  });

  test('stream-deepseek-reasoning.txt: reasoning_content, then content; usage in the finishing chunk', () => {
    expect(decodeWhole(fixtureText('stream-deepseek-reasoning.txt'))).toMatchInlineSnapshot(`
      [
        {
          "created": 1737019900,
          "id": "8f0b4a62-3d1e-4c7a-9b55-2e6f1d0c9a73",
          "model": "deepseek-reasoner",
          "type": "response-start",
        },
        {
          "index": 0,
          "type": "reasoning-start",
        },
        {
          "index": 0,
          "text": "Compare",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "text": " the tenths:",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "text": " 1 < 8",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "text": ".",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "type": "reasoning-end",
        },
        {
          "index": 1,
          "type": "text-start",
        },
        {
          "index": 1,
          "text": "9.11",
          "type": "text-delta",
        },
        {
          "index": 1,
          "text": " is",
          "type": "text-delta",
        },
        {
          "index": 1,
          "text": " smaller.",
          "type": "text-delta",
        },
        {
          "index": 1,
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "stop",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "cacheReadTokens": 0,
            "cacheWriteTokens": 0,
            "estimated": false,
            "inputTokens": 17,
            "outputTokens": 40,
            "raw": {
              "completion_tokens": 40,
              "completion_tokens_details": {
                "reasoning_tokens": 28,
              },
              "prompt_cache_hit_tokens": 0,
              "prompt_cache_miss_tokens": 17,
              "prompt_tokens": 17,
              "prompt_tokens_details": {
                "cached_tokens": 0,
              },
              "total_tokens": 57,
            },
            "reasoningTokens": 28,
            "webSearchCalls": 0,
          },
        },
      ]
    `);
  });

  test('stream-error.txt: an error event ends the stream', () => {
    const events = decodeWhole(fixtureText('stream-error.txt'));
    expect(events.slice(-2)).toEqual([
      { type: 'text-delta', index: 0, text: ' is' },
      {
        type: 'error',
        message: 'The server had an error while processing your request. Sorry about that!',
        code: 'server_error',
      },
    ]);
  });

  test('stream-cut-off.txt: end() closes the open call and finishes with `other`', () => {
    const events = decodeWhole(fixtureText('stream-cut-off.txt'));
    expect(events.slice(-6)).toEqual([
      { type: 'text-delta', index: 0, text: 'Paris is' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_cut', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"ci' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
    ]);
  });

  test.each(streamFixtures)('%s: the same events at every split point, and the grammar holds', (name) => {
    const bytes = new TextEncoder().encode(fixtureText(name));
    const whole = decodeInPieces(openAIChatCodec.createStreamDecoder(new LossLog()), bytes, []);
    expectStreamGrammar(whole);
    for (let cut = 1; cut < bytes.length; cut++) {
      const events = decodeInPieces(openAIChatCodec.createStreamDecoder(new LossLog()), bytes, [cut]);
      if (JSON.stringify(events) !== JSON.stringify(whole))
        expect(events, `split at byte ${cut}`).toEqual(whole);
    }
    const everyByte = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
    expect(decodeInPieces(openAIChatCodec.createStreamDecoder(new LossLog()), bytes, everyByte)).toEqual(
      whole,
    );
  });

  test('the splits include cuts inside multi-byte characters and inside `data:`', () => {
    const text = fixtureText('stream-text.txt');
    const bytes = new TextEncoder().encode(text);
    const emoji = Buffer.from(text).indexOf(Buffer.from('🗼'));
    expect(emoji).toBeGreaterThan(0);
    expect(new TextDecoder().decode(bytes.subarray(0, emoji + 2))).toContain('\uFFFD');
    const whole = decodeWhole(text);
    for (const cut of [emoji + 1, emoji + 2, emoji + 3, text.indexOf('data:', 10) + 2]) {
      expect(decodeInPieces(openAIChatCodec.createStreamDecoder(new LossLog()), bytes, [cut])).toEqual(whole);
    }
  });
});

describe('stream decoder state machine', () => {
  test('a usage-only chunk before the finish does not end the stream; a later one trails the finish', () => {
    const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 };
    const events = decodeWhole(
      sse(
        { ...delta({ content: 'a' }), usage },
        { ...delta({}), choices: [], usage },
        delta({}, 'length'),
        { ...delta({}), choices: [], usage: { ...usage, completion_tokens: 2 } },
        { ...delta({}), choices: [], usage: { ...usage, completion_tokens: 3 } },
        '[DONE]',
      ),
    );
    expect(events.map((event) => event.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
      'usage',
    ]);
    expect(events[4]).toMatchObject({ finishReason: { unified: 'length' }, usage: { outputTokens: 2 } });
    expect(events[5]).toMatchObject({ usage: { outputTokens: 3 } });
    expectStreamGrammar(events);
  });

  test('a tool call whose name comes after its first piece starts once named, with the arguments held so far', () => {
    const events = decodeWhole(
      sse(
        delta({ tool_calls: [{ index: 0, id: 'call_a', function: { arguments: '{"x"' } }] }),
        delta({ tool_calls: [{ index: 0, function: { name: 'f', arguments: ':1}' } }] }),
        delta({}, 'tool_calls'),
      ),
    );
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
    ]);
  });

  test('calls that all say index 0 but carry new ids are separate calls; ids are made when missing', () => {
    const events = decodeWhole(
      sse(
        delta({
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        }),
        delta({
          tool_calls: [
            { index: 0, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        }),
        delta({ tool_calls: [{ index: 1, type: 'function', function: { name: 'h', arguments: '{}' } }] }),
        delta({}, 'tool_calls'),
      ),
    );
    expectStreamGrammar(events);
    const starts = events.filter((event) => event.type === 'tool-call-start');
    expect(starts).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'f' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'g' },
      {
        type: 'tool-call-start',
        index: 2,
        id: expect.stringMatching(/^call_[0-9a-f]{24}$/) as unknown,
        name: 'h',
      },
    ]);
  });

  test('what cannot be kept is recorded: other choices, late arguments, refusals, unnamed calls', () => {
    const losses = new LossLog();
    const events = decodeWhole(
      sse(
        delta({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'f', arguments: '{' } }] }),
        delta({ content: 'x' }),
        delta({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
        delta({ content: 'other' }, null, 1),
        delta({ refusal: 'No.' }),
        delta({ tool_calls: [{ index: 5, id: 'call_z', function: { arguments: '{}' } }] }),
        delta({}, 'stop'),
        '[DONE]',
      ),
      losses,
    );
    expectStreamGrammar(events);
    expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []))).toEqual([
      'x',
      'No.',
    ]);
    expect(events).toContainEqual({ type: 'tool-call-start', index: 2, id: 'call_z', name: '' });
    expect(losses.losses).toMatchInlineSnapshot(`
      [
        {
          "kind": "dropped",
          "path": "tool_calls[0]",
          "reason": "arguments after the call ended were dropped",
        },
        {
          "kind": "dropped",
          "path": "choices",
          "reason": "only the first choice is kept",
        },
        {
          "kind": "coerced",
          "path": "choices[0].delta.refusal",
          "reason": "a refusal streams as plain text",
        },
        {
          "kind": "coerced",
          "path": "tool_calls[5].function.name",
          "reason": "the upstream never named this tool call",
        },
      ]
    `);
  });

  test('a refusal finishing `stop` is the content filter (https://platform.openai.com/docs/guides/structured-outputs#refusals)', () => {
    const events = decodeWhole(
      sse(
        delta({ role: 'assistant', content: null, refusal: '' }),
        delta({ refusal: "I'm sorry, " }),
        delta({ refusal: 'I cannot help with that.' }),
        delta({}, 'stop'),
        '[DONE]',
      ),
    );
    expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('')).toBe(
      "I'm sorry, I cannot help with that.",
    );
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'content-filter', raw: 'stop' },
    });
    expect(decodeWhole(sse(delta({ content: 'a' }), delta({}, 'content_filter'))).at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'content-filter', raw: 'content_filter' },
    });
  });

  test.each([
    [
      'OpenAI: type and code, no status',
      { message: 'The server had an error.', type: 'server_error', param: null, code: null },
      { type: 'error', message: 'The server had an error.', code: 'server_error' },
    ],
    [
      'OpenRouter: the HTTP status as a numeric code',
      { code: 502, message: 'Provider returned error' },
      { type: 'error', message: 'Provider returned error', code: '502', status: 502 },
    ],
    [
      'a status member',
      { message: 'Rate limit reached', type: 'rate_limit_error', code: 'rate_limit_exceeded', status: 429 },
      { type: 'error', message: 'Rate limit reached', code: 'rate_limit_exceeded', status: 429 },
    ],
  ])('an in-stream error becomes the canonical error event (%s)', (_name, error, expected) => {
    const events = decodeWhole(sse(delta({ content: 'a' }), { error }));
    expect(events.at(-1)).toEqual(expected);
    expectStreamGrammar(events);
  });

  test('an empty upstream body still gives a well-formed stream', () => {
    const events = decodeWhole('');
    expectStreamGrammar(events);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'finish']);
  });

  test('nothing after [DONE] or after an error', () => {
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const afterDone = [
      ...decoder.push({ data: JSON.stringify(delta({ content: 'a' }, 'stop')) }),
      ...decoder.push({ data: '[DONE]' }),
    ];
    expect(decoder.push({ data: JSON.stringify(delta({ content: 'b' })) })).toEqual([]);
    expect(decoder.end()).toEqual([]);
    expectStreamGrammar(afterDone);
    const failing = openAIChatCodec.createStreamDecoder(new LossLog());
    failing.push({ data: JSON.stringify({ error: { message: 'boom', code: 429 } }) });
    expect(failing.push({ data: JSON.stringify(delta({ content: 'b' })) })).toEqual([]);
    expect(failing.end()).toEqual([]);
  });

  test('a chunk that is not a JSON object breaks the stream: nothing after it, no finish', () => {
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const events = [
      ...decoder.push({ data: JSON.stringify(delta({ content: 'a' })) }),
      ...decoder.push({ data: '{"id":"chatcmpl-1","choices":[{"delta":' }),
      ...decoder.push({ data: JSON.stringify(delta({}, 'stop')) }),
      ...decoder.push({ data: '[DONE]' }),
      ...decoder.end(),
    ];
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-start', 'text-delta']);
    expect(decoder.broken()).toBe(
      'an event whose data is not a JSON object: "{\\"id\\":\\"chatcmpl-1\\",\\"choices\\":[{\\"delta\\":"',
    );
  });
});

describe('against the fake OpenAI upstream', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: 'k' });
  });
  afterAll(() => fake.close());

  test.each([false, true])(
    'a streamed reply (tools: %s) decodes into grammatical events',
    async (withTools) => {
      const request = openAIChatCodec.encodeRequest(
        {
          model: 'gpt-4o',
          system: [],
          messages: [{ role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] }],
          tools: withTools ? [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }] : [],
          stream: true,
          extensions: {},
        },
        { losses: new LossLog(), defaultMaxTokens: 8192 },
      );
      const response = await fetch(`${fake.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const events = decodeInPieces(
        openAIChatCodec.createStreamDecoder(new LossLog()),
        bytes,
        [7, 100, 101, 333],
      );
      expectStreamGrammar(events);
      const finish = events.at(-1);
      expect(finish).toMatchObject({
        type: 'finish',
        finishReason: { unified: withTools ? 'tool-calls' : 'stop' },
        usage: { inputTokens: 20, outputTokens: 12, cacheReadTokens: 8, reasoningTokens: 5 },
      });
      if (withTools) {
        const args = events.flatMap((event) =>
          event.type === 'tool-call-delta' ? [event.argumentsDelta] : [],
        );
        expect(args.join('')).toBe('{"query":"weather in Paris"}');
      } else {
        const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
        expect(text.join('')).toBe('Hello from fake OpenAI.');
      }
    },
  );
});

describe('stream decoder on repeated content deltas', () => {
  /** What each chunk decodes to, what the end adds, and the losses. */
  const decode = (...chunks: unknown[]) => {
    const losses = new LossLog();
    const decoder = openAIChatCodec.createStreamDecoder(losses);
    const data = (chunk: unknown) => (typeof chunk === 'string' ? chunk : JSON.stringify(chunk));
    const perChunk = chunks.map((chunk) => decoder.push({ event: undefined, data: data(chunk) }));
    return { perChunk, end: decoder.end(), losses: losses.losses };
  };
  /**
   * `decode` with each chunk after the first made unlike the others by its id, which only the first
   * is read for: every chunk is parsed whole.
   */
  const decodeWhole = (...chunks: unknown[]) =>
    decode(
      ...chunks.map((chunk, index) =>
        index === 0 || typeof chunk === 'string'
          ? chunk
          : JSON.stringify(chunk).replace('"chatcmpl-t"', `"chatcmpl-${index}"`),
      ),
    );

  test('a chunk that repeats a plain content delta but for its content is read by its content alone', () => {
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const data = (content: string) => JSON.stringify(delta({ content }));
    decoder.push({ event: undefined, data: data('first') });
    const parse = vi.spyOn(JSON, 'parse');
    let events: StreamEvent[];
    try {
      events = ['sec"ond ☃', '', 'third'].flatMap((content) =>
        decoder.push({ event: undefined, data: data(content) }),
      );
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"sec\\"ond ☃"', '""', '"third"']);
    } finally {
      parse.mockRestore();
    }
    expect(events).toEqual([
      { type: 'text-delta', index: 0, text: 'sec"ond ☃' },
      { type: 'text-delta', index: 0, text: 'third' },
    ]);
    expect(decoder.push({ event: undefined, data: data('x').replace('"x"', '"x" 1') })).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });

  test("OpenAI's own chunks, padded by obfuscation, are read by their content alone", () => {
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const data = (content: string, obfuscation: string) =>
      JSON.stringify({ ...delta({ content }), usage: null, obfuscation });
    decoder.push({ event: undefined, data: data('first', 'pad') });
    const parse = vi.spyOn(JSON, 'parse');
    let events: StreamEvent[];
    try {
      events = [
        ['second', 'a"b\\c'],
        ['third', ''],
      ].flatMap(([content, padding]) => decoder.push({ event: undefined, data: data(content!, padding!) }));
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"second"', '"third"']);
    } finally {
      parse.mockRestore();
    }
    expect(events).toEqual([
      { type: 'text-delta', index: 0, text: 'second' },
      { type: 'text-delta', index: 0, text: 'third' },
    ]);
    expect(decoder.push({ event: undefined, data: data('x', 'y').replace('"y"', '"\\q"') })).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });

  test('a chunk that repeats a plain reasoning delta is read by its reasoning alone, either member', () => {
    for (const member of ['reasoning_content', 'reasoning']) {
      const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
      const data = (piece: string) => JSON.stringify(delta({ content: null, [member]: piece }));
      decoder.push({ event: undefined, data: data('first') });
      let events: StreamEvent[] = [];
      const parsed = parsedWhile(() => {
        events = ['sec"ond', '', 'third'].flatMap((piece) =>
          decoder.push({ event: undefined, data: data(piece) }),
        );
      });
      expect([member, parsed]).toEqual([member, ['"sec\\"ond"', '""', '"third"']]);
      expect(events).toEqual([
        { type: 'reasoning-delta', index: 0, text: 'sec"ond' },
        { type: 'reasoning-delta', index: 0, text: 'third' },
      ]);
    }
  });

  test('reasoning, then the answer, then reasoning again, decode as when every chunk is parsed whole', () => {
    for (const member of ['reasoning_content', 'reasoning']) {
      const think = (piece: string) => delta({ content: null, [member]: piece });
      const say = (piece: string) => delta({ content: piece, [member]: null });
      const chunks = [
        think('a'),
        think('b'),
        think(''),
        say('c'),
        say('d'),
        think('e'),
        think('f'),
        say(''),
        say('g'),
        delta({}, 'stop'),
        '[DONE]',
      ];
      expect([member, decode(...chunks)]).toEqual([member, decodeWhole(...chunks)]);
    }
  });

  test("a chunk that repeats a tool call's arguments delta is read by its arguments alone", () => {
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const args = (piece: string) =>
      JSON.stringify(delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    const named = delta({
      tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }],
    });
    decoder.push({ event: undefined, data: JSON.stringify(named) });
    decoder.push({ event: undefined, data: args('{"a') });
    let events: StreamEvent[] = [];
    const parsed = parsedWhile(() => {
      events = ['":"b', '', '"}'].flatMap((piece) => decoder.push({ event: undefined, data: args(piece) }));
    });
    expect(parsed).toEqual(['"\\":\\"b"', '""', '"\\"}"']);
    expect(events).toEqual([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '":"b' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"}' },
    ]);
  });

  test('tool calls, interleaved, pending, renamed and repeated whole, decode as when parsed whole', () => {
    const call = (value: Record<string, unknown>) => delta({ tool_calls: [value] });
    const args = (index: number, piece: string) => call({ index, function: { arguments: piece } });
    const chunks = [
      delta({ content: 'Let me look.' }),
      call({ index: 0, id: 'c0', type: 'function', function: { name: 'read', arguments: '' } }),
      args(0, '{"p'),
      args(0, 'ath"'),
      call({ index: 1, id: 'c1', type: 'function', function: { name: 'list', arguments: '{' } }),
      args(1, '"dir"'),
      args(1, ':"/"}'),
      args(0, ':"a"'),
      args(0, '}'),
      // A server that repeats the call's id and name in every chunk.
      call({ index: 2, id: 'c2', type: 'function', function: { name: 'grep', arguments: '{"q"' } }),
      call({ index: 2, id: 'c2', type: 'function', function: { name: 'grep', arguments: ':"x' } }),
      call({ index: 2, id: 'c2', type: 'function', function: { name: 'grep', arguments: '"}' } }),
      // The same id again after another call took its index: a new call, whole path or not.
      delta({
        content: 'x',
        tool_calls: [{ index: 2, id: 'c9', function: { name: 'other', arguments: '{' } }],
      }),
      call({ index: 2, id: 'c2', type: 'function', function: { name: 'grep', arguments: '{}' } }),
      // Arguments before the name: held until the call is named.
      call({ index: 3, id: 'c3', function: { arguments: '{' } }),
      args(3, '"k"'),
      args(3, ':1'),
      call({ index: 3, function: { name: 'late', arguments: '}' } }),
      // A server that numbers every call 0: a new id is a new call.
      call({ index: 0, id: 'c4', type: 'function', function: { name: 'again', arguments: '{' } }),
      args(0, '}'),
      args(0, ''),
      delta({ content: 'Done.' }),
      args(1, 'late'),
      args(1, 'r'),
      delta({}, 'tool_calls'),
      '[DONE]',
    ];
    const decoded = decode(...chunks);
    expect(decoded).toEqual(decodeWhole(...chunks));
    expect(decoded.losses.map(({ reason }) => reason)).toEqual([
      'arguments after the call ended were dropped',
    ]);
  });

  test('after the finish, a chunk that repeats a content delta adds nothing', () => {
    const plain = (content: string) => delta({ content });
    const { perChunk } = decode(plain('a'), delta({}, 'stop'), '[DONE]', plain('b'));
    expect(perChunk[3]).toEqual([]);
  });

  // Each chunk says more than its content: the same chunk with another content must still say it.
  const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
  const sayingMore: [string, unknown[]][] = [
    ['reasoning_content', [delta({ content: 'a', reasoning_content: 'r' })]],
    ['reasoning', [delta({ content: 'a', reasoning: 'r' })]],
    [
      'reasoning_content beside reasoning',
      [delta({ content: null, reasoning_content: 'r', reasoning: 'a' })],
    ],
    [
      'reasoning beside reasoning_content',
      [delta({ content: null, reasoning: 'r', reasoning_content: 'a' })],
    ],
    ['content beside the reasoning', [delta({ content: 'c', reasoning_content: 'a' })]],
    [
      'content beside a call',
      [
        delta({
          content: 'c',
          tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: 'a' } }],
        }),
      ],
    ],
    [
      'reasoning beside a call',
      [
        delta({
          reasoning_content: 'r',
          tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: 'a' } }],
        }),
      ],
    ],
    [
      'a second call without arguments',
      [
        delta({
          tool_calls: [
            { index: 0, id: 'c1', function: { name: 'f', arguments: 'a' } },
            { index: 1, id: 'c2', function: { name: 'g' } },
          ],
        }),
      ],
    ],
    ['a refusal', [delta({ content: 'a', refusal: 'no' })]],
    [
      'a tool call',
      [
        delta({
          content: 'a',
          tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{' } }],
        }),
      ],
    ],
    ['a legacy function call', [delta({ content: 'a', function_call: { name: 'f', arguments: '{' } })]],
    ['an image', [delta({ content: 'a', images: [image] })]],
    ['a finish', [delta({ content: 'a' }, 'stop')]],
    ['another choice', [delta({ content: 'a' }, null, 1)]],
    [
      'usage, changed in between',
      [
        { ...delta({ content: 'a' }), usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
        { ...delta({}), choices: [], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } },
      ],
    ],
  ];
  test.each(sayingMore)(
    'a chunk with %s is never read by its content alone',
    (_name, [first, ...between]) => {
      const again = JSON.stringify(first).replace('"a"', '"b"');
      // The same chunk with a member the decoder does not read changed, so that it cannot match.
      const unmatched = again.replace('"chatcmpl-t"', '"chatcmpl-u"');
      expect(decode(first, ...between, again)).toEqual(decode(first, ...between, unmatched));
    },
  );
});
