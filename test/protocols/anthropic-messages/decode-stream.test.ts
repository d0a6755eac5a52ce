import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { decodeChunks, expectStreamGrammar, readFixture } from './helpers.js';

const NOW = new Date('2025-06-01T00:00:00Z');
const CREATED = NOW.getTime() / 1000;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

function decodeText(text: string, cuts: number[] = []) {
  const losses = new LossLog();
  const events = decodeChunks(codec.createStreamDecoder(losses), new TextEncoder().encode(text), cuts);
  return { events, losses: losses.losses };
}

const STREAMS = ['stream-thinking-tool.txt', 'stream-web-search.txt', 'stream-error.txt'];

describe('createStreamDecoder', () => {
  it('decodes thinking with its signature, text and a tool call, and finishes with the stream usage', () => {
    const { events, losses } = decodeText(readFixture('stream-thinking-tool.txt'));
    expect(events).toEqual<StreamEvent[]>([
      {
        type: 'response-start',
        id: 'msg_014p7gG3wDgGV9EUtLvnow3U',
        model: 'claude-sonnet-4-5-20250929',
        created: CREATED,
      },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Let me think about ' },
      { type: 'reasoning-delta', index: 0, text: 'the weather in Zürich — ' },
      { type: 'reasoning-delta', index: 0, text: 'call the tool.' },
      {
        type: 'reasoning-end',
        index: 0,
        signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkBHNn3dsBtZ+7Yy7nGfRt3W' },
      },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'Okay — ' },
      { type: 'text-delta', index: 1, text: 'checking 漢字 ' },
      { type: 'text-delta', index: 1, text: 'and 🚀 now.' },
      { type: 'text-end', index: 1 },
      { type: 'tool-call-start', index: 2, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city": "Zü' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: 'rich", "unit"' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: ': "celsius"}' },
      { type: 'tool-call-end', index: 2 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: {
          inputTokens: 472 + 3000 + 1200,
          cacheReadTokens: 3000,
          cacheWriteTokens: 1200,
          cacheWrite5mTokens: 200,
          cacheWrite1hTokens: 1000,
          outputTokens: 89,
          reasoningTokens: 31,
          webSearchCalls: 0,
          estimated: false,
          raw: expect.objectContaining({ input_tokens: 472, output_tokens: 89 }),
        },
      },
    ]);
    expectStreamGrammar(events);
    expect(losses).toEqual([]);
  });

  it('drops streamed server tool blocks and citations with losses, and counts web searches', () => {
    const { events, losses } = decodeText(readFixture('stream-web-search.txt'));
    expect(events.filter((event) => event.type !== 'response-start' && event.type !== 'finish')).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: "I'll check." },
      { type: 'text-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, text: 'It is sunny, 22°C.' },
      { type: 'text-end', index: 1 },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 10682, outputTokens: 510, webSearchCalls: 1 },
    });
    expect(losses.map((loss) => loss.path)).toEqual(['content[1]', 'content[2]', 'content[3].citations']);
    expectStreamGrammar(events);
  });

  it('turns an error event into a canonical error that ends the stream', () => {
    const { events } = decodeText(readFixture('stream-error.txt'));
    expect(events.slice(1)).toEqual([
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Partial ans' },
      { type: 'error', message: 'Overloaded', code: 'overloaded_error', status: 529 },
    ]);
    expectStreamGrammar(events);
  });

  it.each(STREAMS)(
    '%s: every split point, mid character and mid line included, gives the same events',
    (name) => {
      const text = readFixture(name);
      const whole = decodeText(text).events;
      const length = new TextEncoder().encode(text).length;
      for (let cut = 1; cut < length; cut += 1) expect(decodeText(text, [cut]).events).toEqual(whole);
      const everyByte = Array.from({ length: length - 1 }, (_, index) => index + 1);
      expect(decodeText(text, everyByte).events).toEqual(whole);
    },
  );

  it('ends a stream cut short: open blocks close, the finish is `other`, output stays unknown', () => {
    const text = readFixture('stream-thinking-tool.txt');
    const cut = text.indexOf('event: content_block_stop\ndata: {"type":"content_block_stop","index":1}');
    const { events } = decodeText(text.slice(0, cut));
    expect(events.slice(-3)).toEqual([
      { type: 'text-delta', index: 1, text: 'and 🚀 now.' },
      { type: 'text-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'other', raw: undefined },
        usage: expect.objectContaining({ inputTokens: 4672, outputTokens: undefined }),
      },
    ]);
    expectStreamGrammar(events);
  });

  it('finishes with the stop reason of message_delta when message_stop never came', () => {
    const text = readFixture('stream-thinking-tool.txt');
    const { events } = decodeText(text.slice(0, text.indexOf('event: message_stop')));
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { outputTokens: 89 },
    });
  });

  it('ignores ping and unknown events, and opens a stream that skipped message_start', () => {
    const losses = new LossLog();
    const decoder = codec.createStreamDecoder(losses);
    const events = [
      ...decoder.push({ event: 'ping', data: '{"type":"ping"}' }),
      ...decoder.push({
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}',
      }),
      ...decoder.push({ event: 'something_new', data: '{"type":"something_new"}' }),
      ...decoder.push({
        event: 'content_block_delta',
        data: '{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"x"}}',
      }),
      ...decoder.end(),
    ];
    expect(events).toEqual([
      { type: 'response-start', id: '', model: '', created: CREATED },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
    ]);
    expectStreamGrammar(events);
    expect(losses.losses).toEqual([]);
    expect(decoder.broken()).toBeUndefined();
  });

  it('an event that is not a JSON object breaks the stream: nothing after it, no finish', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    const events = [
      ...decoder.push({
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}',
      }),
      ...decoder.push({ event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,' }),
      ...decoder.push({ event: 'message_stop', data: '{"type":"message_stop"}' }),
      ...decoder.end(),
    ];
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-start', 'text-delta']);
    expect(decoder.broken()).toBe(
      'an event whose data is not a JSON object: "{\\"type\\":\\"content_block_delta\\",\\"index\\":0,"',
    );
  });

  it('sends a tool input that came whole in content_block_start as one delta', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    decoder.push({
      event: 'message_start',
      data: '{"type":"message_start","message":{"id":"msg_1","model":"m","usage":{"input_tokens":3}}}',
    });
    const events = [
      ...decoder.push({
        event: 'content_block_start',
        data: '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1}}}',
      }),
      ...decoder.push({ event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' }),
    ];
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool-call-end', index: 0 },
    ]);
  });
});

describe('createStreamDecoder on repeated deltas', () => {
  const delta = (index: number, body: object) =>
    JSON.stringify({ type: 'content_block_delta', index, delta: body });
  const text = (piece: string, index = 1) => delta(index, { type: 'text_delta', text: piece });
  const start = (index: number, block: object) =>
    JSON.stringify({ type: 'content_block_start', index, content_block: block });
  const push = (decoder: ReturnType<typeof codec.createStreamDecoder>, data: string, event?: string) =>
    decoder.push({ event: event ?? (JSON.parse(data) as { type?: string }).type, data });

  it('reads a repeated delta by its text alone, and decodes as if every event were parsed', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    push(decoder, start(0, { type: 'thinking', thinking: '' }));
    push(decoder, start(1, { type: 'text', text: '' }));
    push(decoder, text('first'));
    const parse = vi.spyOn(JSON, 'parse');
    let events: StreamEvent[];
    try {
      events = [
        ...decoder.push({ event: 'content_block_delta', data: text('sec"ond ☃') }),
        ...decoder.push({ event: 'content_block_delta', data: text('') }),
      ];
      expect(parse.mock.calls.map(([source]) => source)).toEqual([
        JSON.stringify('sec"ond ☃'),
        JSON.stringify(''),
      ]);
    } finally {
      parse.mockRestore();
    }
    const thinking = (piece: string) => delta(0, { type: 'thinking_delta', thinking: piece });
    // Typed by its SSE event name alone: never learnt, since the next such data may come under
    // another name.
    const untyped = JSON.stringify({ index: 2, delta: { type: 'text_delta', text: 'by name' } });
    events.push(
      ...push(decoder, thinking('mull')),
      ...push(decoder, thinking('ing')),
      // Equal around the text, with members smuggled in between: parsed whole, it is a stop.
      ...push(decoder, text('x').replace('"x"', '"x"},"type":"content_block_stop","z":{"a":"b"')),
      ...push(decoder, text('to a closed block')),
      ...push(decoder, start(2, { type: 'text', text: '' })),
      ...push(decoder, untyped, 'content_block_delta'),
      ...push(decoder, untyped, 'ping'),
      ...push(decoder, thinking('!')),
    );
    expect(events).toEqual<StreamEvent[]>([
      { type: 'text-delta', index: 1, text: 'sec"ond ☃' },
      { type: 'reasoning-delta', index: 0, text: 'mull' },
      { type: 'reasoning-delta', index: 0, text: 'ing' },
      { type: 'text-end', index: 1 },
      { type: 'text-start', index: 2 },
      { type: 'text-delta', index: 2, text: 'by name' },
      { type: 'reasoning-delta', index: 0, text: '!' },
    ]);
    expect(push(decoder, thinking('!').replace('"!"', '"!" 1'), 'content_block_delta')).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });

  it('decodes a long tool input and a stream of text the same, piece by piece', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    push(decoder, start(0, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }));
    const pieces = ['{"a":', '"b\\"', '"}', ''];
    const events = pieces.flatMap((piece) =>
      push(decoder, delta(0, { type: 'input_json_delta', partial_json: piece })),
    );
    expect(events).toEqual(
      pieces.filter(Boolean).map((piece) => ({ type: 'tool-call-delta', index: 0, argumentsDelta: piece })),
    );
  });
});
