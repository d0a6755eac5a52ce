import { describe, expect, test, vi } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { formatSseEvent } from '../../../src/protocols/sse/sse-event-reader.js';
import { defaultFakeUsage } from '../../fakes/fake-upstream.js';
import { openaiResponsesReply } from '../../fakes/openai-responses-reply.js';
import { decodeBytes, fixtureJson, fixtureText } from './sse-helpers.js';
import { expectStreamGrammar as assertStreamGrammar } from '../../helpers/expect-stream-grammar.js';

const encoder = new TextEncoder();
const createDecoder = (losses: LossLog) => codec.createStreamDecoder(losses);

function decodeText(text: string, losses = new LossLog()): StreamEvent[] {
  return decodeBytes({ bytes: encoder.encode(text), createDecoder, losses });
}

function sse(events: Record<string, unknown>[]): string {
  return events
    .map((data) => formatSseEvent({ event: String(data.type), data: JSON.stringify(data) }))
    .join('');
}

describe('stream decoder: recorded streams', () => {
  test('text with multi-byte characters', () => {
    const losses = new LossLog();
    const events = decodeText(fixtureText('stream-text.txt'), losses);
    expect(events).toEqual([
      {
        type: 'response-start',
        id: 'resp_68d9303e0ef4819e9abaed38fac5de4f03aa6e5a972b3b23',
        model: 'gpt-4.1-2025-04-14',
        created: 1759064126,
      },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hé' },
      { type: 'text-delta', index: 0, text: 'llo, ' },
      { type: 'text-delta', index: 0, text: '世界' },
      { type: 'text-delta', index: 0, text: '! 👋' },
      { type: 'text-delta', index: 0, text: ' Ça va?' },
      { type: 'text-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: {
          inputTokens: 36,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          outputTokens: 9,
          reasoningTokens: 0,
          webSearchCalls: 0,
          estimated: false,
          raw: {
            input_tokens: 36,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 9,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 45,
          },
        },
      },
    ]);
    expect(losses.losses).toEqual([]);
  });

  test('reasoning with encrypted content and two summary parts, then two parallel function calls', () => {
    const losses = new LossLog();
    const events = decodeText(fixtureText('stream-reasoning-tools.txt'), losses);
    expect(events.slice(0, -1)).toEqual([
      {
        type: 'response-start',
        id: 'resp_68d9303e0ef4819e9abaed38fac5de4f03aa6e5a972b3b23',
        model: 'gpt-5-2025-08-07',
        created: 1759064126,
      },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: '**Checking' },
      { type: 'reasoning-delta', index: 0, text: ' the weather**\n\nThe user wants ' },
      { type: 'reasoning-delta', index: 0, text: 'Paris and Tōkyō.' },
      { type: 'reasoning-delta', index: 0, text: '\n\n' },
      { type: 'reasoning-delta', index: 0, text: '**Calling' },
      { type: 'reasoning-delta', index: 0, text: ' tools in parallel**' },
      // OpenAI's encrypted content goes with the block's end; the item's final value wins.
      { type: 'reasoning-end', index: 0, signature: { issuer: 'openai', value: 'gAAAAABo2TA_done-blob==' } },
      { type: 'tool-call-start', index: 1, id: 'call_5dp5Uj0Loqn1YcyIpqSq6sLX', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: 'city' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '":"' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: 'Paris' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '"}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'call_Xq2nR8vLk1PzTq0a9dE3fGhJ', name: 'get_weather' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '"Tōkyō"}' },
      { type: 'tool-call-end', index: 2 },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: 75, cacheReadTokens: 64, outputTokens: 155, reasoningTokens: 128 },
    });
    expect(losses.losses).toEqual([]);
  });

  test('the stream says what the reply of the same response says', () => {
    const events = decodeText(fixtureText('stream-reasoning-tools.txt'));
    const reply = codec.decodeReply(fixtureJson('reply-reasoning-tools.json'), new LossLog());
    const texts = new Map<number, string>();
    for (const event of events) {
      if (event.type === 'reasoning-delta')
        texts.set(event.index, (texts.get(event.index) ?? '') + event.text);
      if (event.type === 'tool-call-delta')
        texts.set(event.index, (texts.get(event.index) ?? '') + event.argumentsDelta);
    }
    expect([...texts.values()]).toEqual(
      reply.parts.map((part) =>
        part.type === 'reasoning' ? part.text : part.type === 'tool-call' ? part.arguments : '',
      ),
    );
  });

  test('an incomplete response is a length finish', () => {
    const events = decodeText(fixtureText('stream-incomplete.txt'));
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'length', raw: 'max_output_tokens' },
    });
    assertStreamGrammar(events);
  });

  test('response.failed ends the stream with an error event', () => {
    const events = decodeText(fixtureText('stream-failed.txt'));
    expect(events).toEqual([
      {
        type: 'response-start',
        id: 'resp_68f0f0f0a1b2819e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3e',
        model: 'gpt-5-2025-08-07',
        created: 1759064126,
      },
      { type: 'error', message: 'The model produced invalid content.', code: 'server_error', status: 500 },
    ]);
    assertStreamGrammar(events);
  });
});

describe('stream decoder: bytes cut anywhere', () => {
  test.each(['stream-text.txt', 'stream-reasoning-tools.txt', 'stream-incomplete.txt', 'stream-failed.txt'])(
    '%s: every single cut, mid UTF-8 character and mid data: line included, gives the same events',
    (name) => {
      const bytes = encoder.encode(fixtureText(name));
      const whole = decodeBytes({ bytes, createDecoder, losses: new LossLog() });
      assertStreamGrammar(whole);
      for (let cut = 1; cut < bytes.length; cut++) {
        const events = decodeBytes({ bytes, cuts: [cut], createDecoder, losses: new LossLog() });
        if (JSON.stringify(events) !== JSON.stringify(whole))
          expect(events, `cut at byte ${cut}`).toEqual(whole);
      }
    },
  );

  test('the cuts do fall inside multi-byte characters', () => {
    const bytes = encoder.encode(fixtureText('stream-text.txt'));
    const start = bytes.findIndex((byte) => byte >= 0x80);
    expect(start).toBeGreaterThan(0);
    // Three cuts inside one 4-byte emoji and one inside a 3-byte CJK character.
    const emoji = Buffer.from(bytes).indexOf(Buffer.from('👋'));
    const cjk = Buffer.from(bytes).indexOf(Buffer.from('世'));
    const events = decodeBytes({
      bytes,
      cuts: [cjk + 1, emoji + 1, emoji + 2, emoji + 3],
      createDecoder,
      losses: new LossLog(),
    });
    expect(events).toEqual(decodeBytes({ bytes, createDecoder, losses: new LossLog() }));
  });
});

describe('stream decoder: endings and leniency', () => {
  test('a stream that breaks off: end() closes the open blocks and finishes with other', () => {
    const text = fixtureText('stream-reasoning-tools.txt');
    const broken = text.slice(0, text.indexOf('event: response.function_call_arguments.done'));
    const events = decodeText(broken);
    assertStreamGrammar(events);
    expect(events.slice(-2)).toEqual([
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
    ]);
  });

  test('an empty stream still starts and finishes', () => {
    const events = decodeText('');
    expect(events).toEqual([
      { type: 'response-start', id: '', model: '', created: 0 },
      { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
    ]);
  });

  test('an error event mid-stream', () => {
    const text = fixtureText('stream-text.txt');
    const cut = text.slice(0, text.indexOf('event: response.output_text.done'));
    const events = decodeText(
      cut +
        sse([
          {
            type: 'error',
            code: 'rate_limit_exceeded',
            message: 'Slow down.',
            param: null,
            sequence_number: 99,
          },
        ]),
    );
    assertStreamGrammar(events);
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Slow down.',
      code: 'rate_limit_exceeded',
      status: 429,
    });
  });

  test('missing part events, arguments only at done, refusals', () => {
    const losses = new LossLog();
    const events = decodeText(
      sse([
        { type: 'response.created', response: { id: 'resp_x', model: 'm', created_at: 5 } },
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hi' },
        { type: 'response.output_text.done', output_index: 0, content_index: 0, text: 'Hi there' },
        { type: 'response.refusal.delta', output_index: 0, content_index: 1, delta: 'No.' },
        { type: 'response.output_item.done', output_index: 0, item: { type: 'message' } },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { type: 'function_call', call_id: 'c1', name: 'f' },
        },
        {
          type: 'response.output_item.done',
          output_index: 1,
          item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' },
        },
        {
          type: 'response.output_item.added',
          output_index: 2,
          item: { type: 'web_search_call', id: 'ws_1' },
        },
        {
          type: 'response.output_item.added',
          output_index: 3,
          item: { type: 'reasoning', id: 'rs_1', summary: [] },
        },
        {
          type: 'response.output_item.done',
          output_index: 3,
          item: { type: 'reasoning', id: 'rs_1', summary: [] },
        },
        {
          type: 'response.completed',
          response: { status: 'completed', usage: { input_tokens: 3, output_tokens: 4 } },
        },
      ]),
      losses,
    );
    assertStreamGrammar(events);
    expect(events).toEqual([
      { type: 'response-start', id: 'resp_x', model: 'm', created: 5 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-delta', index: 0, text: ' there' },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'No.' },
      { type: 'text-end', index: 0 },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'c1', name: 'f' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 2 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'completed' },
        usage: expect.objectContaining({ inputTokens: 3, outputTokens: 4, webSearchCalls: 1 }),
      },
    ]);
    expect(losses.losses.map((loss) => loss.path)).toEqual(['output[2]']);
  });

  test('an event that is not a JSON object breaks the stream: nothing after it, no finish', () => {
    const decoder = createDecoder(new LossLog());
    const event = (data: Record<string, unknown> | string) => ({
      event: undefined,
      id: undefined,
      data: typeof data === 'string' ? data : JSON.stringify(data),
    });
    const events = [
      ...decoder.push(event({ type: 'response.created', response: { id: 'resp_x', model: 'm' } })),
      ...decoder.push(event('not json')),
      ...decoder.push(event({ type: 'response.completed', response: { status: 'completed' } })),
      ...decoder.end(),
    ];
    expect(events.map((item) => item.type)).toEqual(['response-start']);
    expect(decoder.broken()).toBe('an event whose data is not a JSON object: "not json"');
  });

  test('encrypted reasoning that only arrives at the item end opens the block there', () => {
    const events = decodeText(
      sse([
        { type: 'response.created', response: { id: 'resp_x', model: 'm', created_at: 5 } },
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'reasoning', id: 'rs_1', summary: [] },
        },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
        },
        { type: 'response.completed', response: { status: 'completed' } },
      ]),
    );
    expect(events.slice(1)).toEqual([
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-end', index: 0, signature: { issuer: 'openai', value: 'enc' } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'completed' } },
    ]);
  });

  test('the fake upstream stream (reasoning summary and a tool call) decodes', () => {
    const fake = openaiResponsesReply(
      {
        method: 'POST',
        url: '/v1/responses',
        path: '/v1/responses',
        query: new URLSearchParams(),
        headers: {},
        body: {
          model: 'gpt-4o',
          stream: true,
          reasoning: { summary: 'auto' },
          tools: [{ type: 'function', name: 'f' }],
        },
      },
      {
        text: '',
        thinking: 'Let me think about that.',
        usage: defaultFakeUsage,
        toolCall: undefined,
        toolArguments: '{"q":"x"}',
        toolCallCount: 1,
        interleaveToolCalls: false,
        refusal: false,
        omitUsage: false,
      },
      (prefix) => `${prefix}fake1`,
    );
    const events = decodeText(fake.kind === 'sse' ? fake.events.join('') : '');
    assertStreamGrammar(events);
    const reasoning = events
      .flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : []))
      .join('');
    const args = events
      .flatMap((event) => (event.type === 'tool-call-delta' ? [event.argumentsDelta] : []))
      .join('');
    expect([reasoning, args]).toEqual(['Let me think about that.', '{"q":"x"}']);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls' },
      usage: { inputTokens: 20 },
    });
  });
});

describe('stream decoder on repeated delta events', () => {
  const delta = (type: string, sequence: number, piece: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type,
      sequence_number: sequence,
      item_id: 'item_1',
      output_index: 0,
      content_index: 0,
      delta: piece,
      obfuscation: 'pad',
      ...extra,
    });
  const created = JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'r' } });
  /** What each event decodes to, what the end adds, and the losses. */
  const decode = (...events: string[]) => {
    const losses = new LossLog();
    const decoder = createDecoder(losses);
    const perEvent = events.map((data) => decoder.push({ event: undefined, data }));
    return { perEvent, end: decoder.end(), losses: losses.losses };
  };

  test('a delta event that repeats the last but for its delta, number and padding is read by its delta alone', () => {
    const decoder = createDecoder(new LossLog());
    decoder.push({ event: undefined, data: created });
    const text = (sequence: number, piece: string, padding: string) =>
      delta('response.output_text.delta', sequence, piece, { obfuscation: padding });
    decoder.push({ event: undefined, data: text(1, 'first', 'p') });
    const parse = vi.spyOn(JSON, 'parse');
    let events: StreamEvent[];
    try {
      events = [text(2, 'sec"ond', ''), text(10, '', 'long padding'), text(11, 'third', 'x')].flatMap(
        (data) => decoder.push({ event: undefined, data }),
      );
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"sec\\"ond"', '""', '"third"']);
    } finally {
      parse.mockRestore();
    }
    expect(events).toEqual([
      { type: 'text-delta', index: 0, text: 'sec"ond' },
      { type: 'text-delta', index: 0, text: 'third' },
    ]);
    expect(decoder.push({ event: undefined, data: text(12, 'x', 'y').replace('"y"', '"\\q"') })).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });

  // Each pair: a learnt delta event, then one that differs in what the decoder reads. The second
  // must decode as it does when it cannot match (another item id, which the decoder does not read).
  const differing: [string, string, string][] = [
    [
      'another content part',
      delta('response.output_text.delta', 1, 'a'),
      delta('response.output_text.delta', 2, 'b', { content_index: 1 }),
    ],
    [
      'another output item',
      delta('response.output_text.delta', 1, 'a'),
      delta('response.output_text.delta', 2, 'b', { output_index: 1 }),
    ],
    [
      'a refusal after text',
      delta('response.output_text.delta', 1, 'a'),
      delta('response.refusal.delta', 2, 'b'),
    ],
    [
      'reasoning, then text',
      delta('response.reasoning_summary_text.delta', 1, 'a'),
      delta('response.output_text.delta', 2, 'b'),
    ],
    [
      'arguments of another call',
      delta('response.function_call_arguments.delta', 1, '{'),
      delta('response.function_call_arguments.delta', 2, '}', { output_index: 3 }),
    ],
    [
      'an event typed by its SSE name alone',
      JSON.stringify({ sequence_number: 1, item_id: 'item_1', delta: 'a' }),
      JSON.stringify({ sequence_number: 2, item_id: 'item_1', delta: 'b' }),
    ],
  ];
  test.each(differing)('%s: decoded as when parsed whole', (_name, first, second) => {
    const unmatched = second.replace('"item_1"', '"item_2"');
    expect(decode(created, first, second)).toEqual(decode(created, first, unmatched));
    expect(decode(created, first, second, second)).toEqual(decode(created, first, unmatched, unmatched));
  });

  test('a delta typed by its SSE name alone is not learnt: the same data may come under another name', () => {
    const untyped = (sequence: number, piece: string) =>
      JSON.stringify({ sequence_number: sequence, item_id: 'item_1', output_index: 0, delta: piece });
    const named = (names: string[], rename: boolean) => {
      const decoder = createDecoder(new LossLog());
      decoder.push({ event: undefined, data: created });
      return names.map((name, index) => {
        const data = untyped(index + 1, 'x');
        return decoder.push({
          event: name,
          data: rename && index > 0 ? data.replace('"item_1"', '"i"') : data,
        });
      });
    };
    const names = ['response.output_text.delta', 'response.reasoning_text.delta'];
    expect(named(names, false)).toEqual(named(names, true));
  });

  test('repeated deltas of each type decode as when parsed whole', () => {
    for (const type of [
      'response.output_text.delta',
      'response.refusal.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_text.delta',
      'response.function_call_arguments.delta',
    ]) {
      const events = ['a', '', 'b"c', 'd'].map((piece, index) => delta(type, index + 1, piece));
      const unmatched = events.map((data, index) =>
        index === 0 ? data : data.replace('"item_1"', `"i${index}"`),
      );
      expect([type, decode(created, ...events)]).toEqual([type, decode(created, ...unmatched)]);
    }
  });
});
