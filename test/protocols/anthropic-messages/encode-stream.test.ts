import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage, type Usage } from '../../../src/ir/usage.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { decodeChunks, expectStreamGrammar, parseSseJson } from './helpers.js';

const usage: Usage = {
  ...emptyUsage(),
  inputTokens: 1500,
  cacheReadTokens: 1000,
  cacheWriteTokens: 200,
  outputTokens: 42,
  reasoningTokens: 12,
};

/** A chat-completions-like upstream: reasoning without signature, text, two parallel tool calls. */
const upstreamEvents: StreamEvent[] = [
  { type: 'response-start', id: 'chatcmpl-9x', model: 'gpt-5', created: 1 },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Two cities, ' },
  { type: 'reasoning-delta', index: 0, text: 'two calls.' },
  { type: 'reasoning-end', index: 0 },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Checking Zürich ' },
  { type: 'text-delta', index: 1, text: 'and 東京 🚀.' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'call_1', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"Zürich"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'tool-call-start', index: 3, id: 'call_2', name: 'get_weather' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":"Tokyo"}' },
  { type: 'tool-call-end', index: 3 },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
];

function encodeAll(events: StreamEvent[], options: { estimatedInputTokens?: number } = {}) {
  const losses = new LossLog();
  const encoder = codec.createStreamEncoder({
    losses,
    estimatedInputTokens: options.estimatedInputTokens ?? 1234,
    model: 'gpt-5@high',
  });
  const text = events.map((event) => encoder.push(event)).join('') + encoder.end();
  return { text, losses: losses.losses };
}

let server: Server;
let client: Anthropic;
let body = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // Small writes, so the SDK's own SSE parser meets split events and split characters.
      const bytes = Buffer.from(body);
      for (let start = 0; start < bytes.length; start += 7) response.write(bytes.subarray(start, start + 7));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new Anthropic({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const params = {
  model: 'gpt-5@high',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Hi' }],
};

describe('createStreamEncoder', () => {
  it('writes the documented event sequence with increasing block indexes', () => {
    const { text, losses } = encodeAll(upstreamEvents);
    const events = parseSseJson(text);
    expect(events.map((event) => [event.event, event.data.type, event.data.index])).toEqual([
      ['message_start', 'message_start', undefined],
      ['content_block_start', 'content_block_start', 0],
      ['content_block_delta', 'content_block_delta', 0],
      ['content_block_delta', 'content_block_delta', 0],
      ['content_block_stop', 'content_block_stop', 0],
      ['content_block_start', 'content_block_start', 1],
      ['content_block_delta', 'content_block_delta', 1],
      ['content_block_delta', 'content_block_delta', 1],
      ['content_block_stop', 'content_block_stop', 1],
      ['content_block_start', 'content_block_start', 2],
      ['content_block_delta', 'content_block_delta', 2],
      ['content_block_delta', 'content_block_delta', 2],
      ['content_block_stop', 'content_block_stop', 2],
      ['content_block_start', 'content_block_start', 3],
      ['content_block_delta', 'content_block_delta', 3],
      ['content_block_stop', 'content_block_stop', 3],
      ['message_delta', 'message_delta', undefined],
      ['message_stop', 'message_stop', undefined],
    ]);
    expect([1, 5, 9].map((position) => events[position]?.data.content_block)).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '', citations: null },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {}, caller: { type: 'direct' } },
    ]);
    expect(events[10]?.data).toEqual({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"city":' },
    });
    expect(events[0]?.data).toMatchInlineSnapshot(`
      {
        "message": {
          "content": [],
          "id": "msg_chatcmpl-9x",
          "model": "gpt-5@high",
          "role": "assistant",
          "stop_reason": null,
          "stop_sequence": null,
          "type": "message",
          "usage": {
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "input_tokens": 1234,
            "output_tokens": 1,
          },
        },
        "type": "message_start",
      }
    `);
    expect(events.at(-2)?.data).toMatchInlineSnapshot(`
      {
        "delta": {
          "stop_reason": "tool_use",
          "stop_sequence": null,
        },
        "type": "message_delta",
        "usage": {
          "cache_creation_input_tokens": 200,
          "cache_read_input_tokens": 1000,
          "input_tokens": 300,
          "output_tokens": 42,
          "output_tokens_details": {
            "thinking_tokens": 12,
          },
        },
      }
    `);
    expect(losses).toEqual([
      {
        kind: 'dropped',
        path: 'stream[0].signature',
        reason: 'thinking from this model has no Anthropic signature',
      },
    ]);
  });

  it('is parsed event by event by the SDK (messages.create with stream: true)', async () => {
    body = encodeAll(upstreamEvents).text;
    const stream = await client.messages.create({ ...params, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(parseSseJson(body).map((event) => event.event));
  });

  it('accumulates in the SDK (messages.stream().finalMessage()) to the whole message', async () => {
    body = encodeAll(upstreamEvents).text;
    const message = await client.messages.stream(params).finalMessage();
    expect(message).toMatchObject({
      id: 'msg_chatcmpl-9x',
      model: 'gpt-5@high',
      role: 'assistant',
      stop_reason: 'tool_use',
      stop_sequence: null,
      content: [
        { type: 'thinking', thinking: 'Two cities, two calls.', signature: '' },
        { type: 'text', text: 'Checking Zürich and 東京 🚀.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Zürich' } },
        { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Tokyo' } },
      ],
      // The final message_delta is authoritative (client-api 4.7, rule 5).
      usage: {
        input_tokens: 300,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 200,
        output_tokens: 42,
      },
    });
  });

  it('states the estimate in message_start and nothing more', () => {
    const { text } = encodeAll(upstreamEvents, { estimatedInputTokens: 777 });
    expect(parseSseJson(text)[0]?.data).toMatchObject({
      message: { usage: { input_tokens: 777, output_tokens: 1 } },
    });
  });

  it('puts interleaved canonical blocks on the wire one after another', async () => {
    const interleaved: StreamEvent[] = [
      { type: 'response-start', id: 'gen-1', model: 'gemini', created: 1 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'tool-call-start', index: 1, id: 'fc_1', name: 'f' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":' },
      { type: 'text-delta', index: 0, text: 'B' },
      { type: 'tool-call-start', index: 2, id: 'fc_2', name: 'g' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'STOP' }, usage },
    ];
    body = encodeAll(interleaved).text;
    const wire = parseSseJson(body).filter((event) => event.event?.startsWith('content_block'));
    expect(
      wire.map(
        (event) => `${String(event.data.type).replace('content_block_', '')} ${String(event.data.index)}`,
      ),
    ).toEqual([
      'start 0',
      'delta 0',
      'delta 0',
      'stop 0',
      'start 1',
      'delta 1',
      'delta 1',
      'stop 1',
      'start 2',
      'delta 2',
      'stop 2',
    ]);
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content).toMatchObject([
      { type: 'text', text: 'AB' },
      { type: 'tool_use', id: 'fc_1', input: { x: 1 } },
      { type: 'tool_use', id: 'fc_2', input: {} },
    ]);
  });

  it('waits for a trailing usage event after a finish without usage, else uses the estimate', () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt', created: 1 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
    ];
    const trailing = encodeAll([
      ...events,
      { type: 'usage', usage: { ...emptyUsage(), inputTokens: 9, outputTokens: 2 } },
    ]);
    expect(parseSseJson(trailing.text).at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 9,
        output_tokens: 2,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    const none = encodeAll(events, { estimatedInputTokens: 50 });
    expect(parseSseJson(none.text).at(-2)?.data).toMatchObject({
      usage: { input_tokens: 50, output_tokens: 0 },
    });
    expect(parseSseJson(none.text).at(-1)?.event).toBe('message_stop');
  });

  it('writes an error event the SDK raises as an APIError of the Anthropic type', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'x', model: 'gpt', created: 1 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Partial' },
      {
        type: 'error',
        message: 'the upstream sent nothing for 30 seconds (request id: abc)',
        code: 'upstream_timeout',
      },
    ];
    const { text } = encodeAll(events);
    expect(
      text.endsWith(
        'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"the upstream sent nothing for 30 seconds (request id: abc)"}}\n\n',
      ),
    ).toBe(true);
    body = text;
    const stream = await client.messages.create({ ...params, stream: true });
    const seen: string[] = [];
    const failure = await (async () => {
      try {
        for await (const event of stream) seen.push(event.type);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(seen).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(failure).toBeInstanceOf(APIError);
    expect(failure).toMatchObject({ type: 'api_error' });
    expect(
      encodeAll([events[0]!, { type: 'error', message: 'Overloaded', code: 'overloaded_error' }]).text,
    ).toContain('"error":{"type":"overloaded_error","message":"Overloaded"}');
  });

  it('keeps signatures and redacted thinking of an Anthropic upstream', () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'msg_1', model: 'claude', created: 1 },
      { type: 'reasoning-start', index: 0, redactedData: { issuer: 'anthropic', value: 'opaque' } },
      { type: 'reasoning-end', index: 0 },
      { type: 'reasoning-start', index: 1 },
      { type: 'reasoning-delta', index: 1, text: 'hm' },
      { type: 'reasoning-end', index: 1, signature: { issuer: 'anthropic', value: 'sig-1' } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ];
    const { text, losses } = encodeAll(events);
    const wire = parseSseJson(text);
    expect(wire[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'redacted_thinking', data: 'opaque' },
    });
    expect(
      wire.find((event) => (event.data.delta as { type?: string } | undefined)?.type === 'signature_delta')
        ?.data,
    ).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'signature_delta', signature: 'sig-1' },
    });
    expect(wire[0]?.data).toMatchObject({ message: { id: 'msg_1' } });
    expect(losses).toEqual([]);
  });

  it('writes a Gemini upstream’s signatures behind their marker, a call’s as a thinking block after the call', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'gem-1', model: 'gemini', created: 1 },
      { type: 'reasoning-start', index: 0 },
      { type: 'reasoning-delta', index: 0, text: 'Thinking.' },
      { type: 'reasoning-end', index: 0, signature: { issuer: 'gemini', value: 'CiQthought' } },
      { type: 'tool-call-start', index: 1, id: 'fc_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Paris"}' },
      { type: 'tool-call-end', index: 1, signature: { issuer: 'gemini', value: 'CiQcall' } },
      { type: 'tool-call-start', index: 2, id: 'fc_2', name: 'get_weather' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":"Rome"}' },
      { type: 'tool-call-end', index: 2 },
      { type: 'reasoning-start', index: 3, redactedData: { issuer: 'openai', value: 'gAAAAenc' } },
      { type: 'reasoning-end', index: 3 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'STOP' }, usage },
    ];
    const { text, losses } = encodeAll(events);
    expect(losses).toEqual([]);
    expect(
      parseSseJson(text)
        .filter(({ event }) => event?.startsWith('content_block'))
        .map(({ data }) => data),
    ).toMatchInlineSnapshot(`
      [
        {
          "content_block": {
            "signature": "",
            "thinking": "",
            "type": "thinking",
          },
          "index": 0,
          "type": "content_block_start",
        },
        {
          "delta": {
            "thinking": "Thinking.",
            "type": "thinking_delta",
          },
          "index": 0,
          "type": "content_block_delta",
        },
        {
          "delta": {
            "signature": "gemini:CiQthought",
            "type": "signature_delta",
          },
          "index": 0,
          "type": "content_block_delta",
        },
        {
          "index": 0,
          "type": "content_block_stop",
        },
        {
          "content_block": {
            "caller": {
              "type": "direct",
            },
            "id": "fc_1",
            "input": {},
            "name": "get_weather",
            "type": "tool_use",
          },
          "index": 1,
          "type": "content_block_start",
        },
        {
          "delta": {
            "partial_json": "{"city":"Paris"}",
            "type": "input_json_delta",
          },
          "index": 1,
          "type": "content_block_delta",
        },
        {
          "index": 1,
          "type": "content_block_stop",
        },
        {
          "content_block": {
            "signature": "",
            "thinking": "",
            "type": "thinking",
          },
          "index": 2,
          "type": "content_block_start",
        },
        {
          "delta": {
            "signature": "gemini:CiQcall",
            "type": "signature_delta",
          },
          "index": 2,
          "type": "content_block_delta",
        },
        {
          "index": 2,
          "type": "content_block_stop",
        },
        {
          "content_block": {
            "caller": {
              "type": "direct",
            },
            "id": "fc_2",
            "input": {},
            "name": "get_weather",
            "type": "tool_use",
          },
          "index": 3,
          "type": "content_block_start",
        },
        {
          "delta": {
            "partial_json": "{"city":"Rome"}",
            "type": "input_json_delta",
          },
          "index": 3,
          "type": "content_block_delta",
        },
        {
          "index": 3,
          "type": "content_block_stop",
        },
        {
          "content_block": {
            "data": "openai-redacted:gAAAAenc",
            "type": "redacted_thinking",
          },
          "index": 4,
          "type": "content_block_start",
        },
        {
          "index": 4,
          "type": "content_block_stop",
        },
      ]
    `);

    // What the SDK assembles, echoed back as the next request's assistant turn, decodes to the same tokens.
    body = text;
    const message = await client.messages.stream(params).finalMessage();
    const echoed = codec.decodeRequest(
      {
        model: 'm',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: message.content },
        ],
      },
      { losses: new LossLog() },
    );
    expect(echoed.messages[1]?.parts).toEqual([
      { type: 'reasoning', text: 'Thinking.', signature: { issuer: 'gemini', value: 'CiQthought' } },
      {
        type: 'tool-call',
        id: 'fc_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
        signature: { issuer: 'gemini', value: 'CiQcall' },
      },
      { type: 'tool-call', id: 'fc_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { type: 'reasoning', text: '', redactedData: { issuer: 'openai', value: 'gAAAAenc' } },
    ]);
  });

  it.each([
    [529, undefined, 'overloaded_error'],
    [503, 'UNAVAILABLE', 'overloaded_error'],
    [429, 'RESOURCE_EXHAUSTED', 'rate_limit_error'],
    [500, 'server_error', 'api_error'],
    [400, undefined, 'invalid_request_error'],
    [504, undefined, 'timeout_error'],
    [undefined, 'rate_limit_error', 'rate_limit_error'],
    [undefined, 'upstream_timeout', 'api_error'],
  ] as const)('ends the stream with an error of status %s (code %s) as %s', (status, code, type) => {
    const { text } = encodeAll([
      { type: 'response-start', id: 'x', model: 'gpt', created: 1 },
      { type: 'error', message: 'Upstream failed', ...(code ? { code } : {}), ...(status ? { status } : {}) },
    ]);
    expect(parseSseJson(text).at(-1)).toEqual({
      event: 'error',
      data: { type: 'error', error: { type, message: 'Upstream failed' } },
    });
  });

  it('decodes back to the same canonical events (ids in Anthropic form)', () => {
    const { text } = encodeAll(upstreamEvents);
    const decoded = decodeChunks(
      codec.createStreamDecoder(new LossLog()),
      new TextEncoder().encode(text),
      [],
    );
    expectStreamGrammar(decoded);
    const strip = (events: StreamEvent[]) =>
      events.filter((event) => event.type !== 'response-start' && event.type !== 'finish');
    expect(strip(decoded)).toEqual(strip(upstreamEvents));
    expect(decoded.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: {
        inputTokens: 1500,
        cacheReadTokens: 1000,
        cacheWriteTokens: 200,
        outputTokens: 42,
        reasoningTokens: 12,
      },
    });
  });
});

describe('createStreamEncoder on repeated pieces of text', () => {
  // A text of each kind JSON escapes differently, then nothing but plain text.
  const pieces = ['a "q" \\ b', '\n\u0001\u2028', '☃ 😀 \ud800', 'plain'];
  const frame = (index: number, delta: object) =>
    `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index, delta })}\n\n`;

  it('writes each delta as the event built and serialised whole, block by block', () => {
    const encoder = codec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 10,
      model: 'claude-x',
    });
    encoder.push({ type: 'response-start', id: 'msg_1', model: 'claude-x', created: 1 });
    const blocks = [
      { start: { type: 'reasoning-start', index: 0 }, delta: 'reasoning-delta', member: 'thinking' },
      { start: { type: 'text-start', index: 1 }, delta: 'text-delta', member: 'text' },
      {
        start: { type: 'tool-call-start', index: 2, id: 'toolu_1', name: 'f' },
        delta: 'tool-call-delta',
        member: 'partial_json',
      },
      { start: { type: 'text-start', index: 3 }, delta: 'text-delta', member: 'text' },
    ] as const;
    const types = { thinking: 'thinking_delta', text: 'text_delta', partial_json: 'input_json_delta' };
    blocks.forEach(({ start, delta, member }, wireIndex) => {
      encoder.push(start);
      for (const text of pieces) {
        const event = (
          delta === 'tool-call-delta'
            ? { type: delta, index: start.index, argumentsDelta: text }
            : { type: delta, index: start.index, text }
        ) as StreamEvent;
        expect(encoder.push(event)).toBe(frame(wireIndex, { type: types[member], [member]: text }));
      }
      encoder.push({
        type: `${start.type.slice(0, -'-start'.length)}-end`,
        index: start.index,
      } as StreamEvent);
    });
  });
});
