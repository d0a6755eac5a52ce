import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { Usage } from '../../../src/ir/usage.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { withOpenAIClient } from './local-server.js';
import { decodeBytes, fixtureText, readSseEvents } from './sse-helpers.js';
import { expectStreamGrammar as assertStreamGrammar } from '../../helpers/expect-stream-grammar.js';

const encoder = new TextEncoder();

const usage: Usage = {
  inputTokens: 120,
  cacheReadTokens: 100,
  cacheWriteTokens: 0,
  outputTokens: 40,
  reasoningTokens: 12,
  webSearchCalls: 0,
  estimated: false,
};

/** Canonical events as another protocol's decoder (Anthropic messages here) would give them. */
const anthropicEvents: StreamEvent[] = [
  {
    type: 'response-start',
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    model: 'claude-sonnet-4-20250514',
    created: 1_700_000_000,
  },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'The user wants ' },
  { type: 'reasoning-delta', index: 0, text: 'the weather.' },
  { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkDs' } },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Checking ' },
  { type: 'text-delta', index: 1, text: 'Paris and Tōkyō 👋' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'toolu_01A', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 2 },
  { type: 'tool-call-start', index: 3, id: 'toolu_01B', name: 'get_weather' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":"Tōkyō"}' },
  { type: 'tool-call-end', index: 3 },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
];

function encodeStream(events: StreamEvent[], losses = new LossLog()): string[] {
  const streamEncoder = codec.createStreamEncoder({
    losses,
    estimatedInputTokens: 99,
    model: 'claude-sonnet-4',
  });
  return [...events.map((event) => streamEncoder.push(event)), streamEncoder.end()];
}

function wireEvents(chunks: string[]): { event: string | undefined; data: Record<string, unknown> }[] {
  return readSseEvents(encoder.encode(chunks.join(''))).map((event) => ({
    event: event.event,
    data: JSON.parse(event.data) as Record<string, unknown>,
  }));
}

describe('stream encoder: the vendor sequence', () => {
  test('event names, data types and sequence numbers from 0', () => {
    const losses = new LossLog();
    const events = wireEvents(encodeStream(anthropicEvents, losses));
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.data.type)).toEqual(events.map((event) => event.event));
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    expect(losses.losses).toEqual([]);
  });

  test('created: in progress, empty output, usage null; completed: the whole response with usage', () => {
    const events = wireEvents(encodeStream(anthropicEvents));
    const created = events[0]!.data.response as Record<string, unknown>;
    expect(created).toMatchObject({
      id: 'resp_516764b7aa7aea5acf4373ac8e6e36225788cd4453638604',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'in_progress',
      model: 'claude-sonnet-4',
      output: [],
      usage: null,
    });
    const completed = events.at(-1)!.data.response as Record<string, unknown>;
    expect(completed).toMatchObject({ id: created.id, status: 'completed', incomplete_details: null });
    expect(completed.usage).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 100 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 160,
    });
    expect((completed.output as { type: string }[]).map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
  });

  test('a short text stream, pinned', () => {
    const chunks = encodeStream([
      { type: 'response-start', id: 'resp_abc', model: 'x', created: 1 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ]);
    const events = wireEvents(chunks).map((event) => {
      const { response, ...rest } = event.data as { response?: Record<string, unknown> };
      return response ? { ...rest, response: { status: response.status, output: response.output } } : rest;
    });
    expect(chunks[2]).toBe(
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,' +
        '"item_id":"msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320","output_index":0,"content_index":0,' +
        '"delta":"Hi","logprobs":[]}\n\n',
    );
    expect(events).toMatchInlineSnapshot(`
      [
        {
          "response": {
            "output": [],
            "status": "in_progress",
          },
          "sequence_number": 0,
          "type": "response.created",
        },
        {
          "response": {
            "output": [],
            "status": "in_progress",
          },
          "sequence_number": 1,
          "type": "response.in_progress",
        },
        {
          "item": {
            "content": [],
            "id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
            "role": "assistant",
            "status": "in_progress",
            "type": "message",
          },
          "output_index": 0,
          "sequence_number": 2,
          "type": "response.output_item.added",
        },
        {
          "content_index": 0,
          "item_id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
          "output_index": 0,
          "part": {
            "annotations": [],
            "logprobs": [],
            "text": "",
            "type": "output_text",
          },
          "sequence_number": 3,
          "type": "response.content_part.added",
        },
        {
          "content_index": 0,
          "delta": "Hi",
          "item_id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
          "logprobs": [],
          "output_index": 0,
          "sequence_number": 4,
          "type": "response.output_text.delta",
        },
        {
          "content_index": 0,
          "item_id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
          "logprobs": [],
          "output_index": 0,
          "sequence_number": 5,
          "text": "Hi",
          "type": "response.output_text.done",
        },
        {
          "content_index": 0,
          "item_id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
          "output_index": 0,
          "part": {
            "annotations": [],
            "logprobs": [],
            "text": "Hi",
            "type": "output_text",
          },
          "sequence_number": 6,
          "type": "response.content_part.done",
        },
        {
          "item": {
            "content": [
              {
                "annotations": [],
                "logprobs": [],
                "text": "Hi",
                "type": "output_text",
              },
            ],
            "id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
            "role": "assistant",
            "status": "completed",
            "type": "message",
          },
          "output_index": 0,
          "sequence_number": 7,
          "type": "response.output_item.done",
        },
        {
          "response": {
            "output": [
              {
                "content": [
                  {
                    "annotations": [],
                    "logprobs": [],
                    "text": "Hi",
                    "type": "output_text",
                  },
                ],
                "id": "msg_607088dd881da693bd77ff0d6a7399e25029f5a48541a320",
                "role": "assistant",
                "status": "completed",
                "type": "message",
              },
            ],
            "status": "completed",
          },
          "sequence_number": 8,
          "type": "response.completed",
        },
      ]
    `);
  });
});

describe('stream encoder: the official SDK parses it', () => {
  test('responses.create({ stream: true }) yields every event; responses.stream() accumulates the final response', async () => {
    const chunks = encodeStream(anthropicEvents);
    const types = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, async (client) => {
      const seen: string[] = [];
      for await (const event of await client.responses.create({
        model: 'claude-sonnet-4',
        input: 'hi',
        stream: true,
      })) {
        seen.push(event.type);
      }
      return seen;
    });
    expect(types).toEqual(wireEvents(chunks).map((event) => event.event));

    const final = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses.stream({ model: 'claude-sonnet-4', input: 'hi' }).finalResponse(),
    );
    expect(final.output_text).toBe('Checking Paris and Tōkyō 👋');
    expect(final.status).toBe('completed');
    const reasoning = final.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary.map((part) => part.text)).toEqual([
      'The user wants the weather.',
    ]);
    const calls = final.output.flatMap((item) =>
      item.type === 'function_call' ? [[item.call_id, item.arguments]] : [],
    );
    expect(calls).toEqual([
      ['toolu_01A', '{"city":"Paris"}'],
      ['toolu_01B', '{"city":"Tōkyō"}'],
    ]);
    expect(final.usage?.input_tokens).toBe(120);
  });

  test('the SDK parses the stream sent in 5-byte pieces, cutting characters and lines', async () => {
    const bytes = encoder.encode(encodeStream(anthropicEvents).join(''));
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 5) chunks.push(bytes.subarray(at, at + 5));
    const final = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses.stream({ model: 'claude-sonnet-4', input: 'hi' }).finalResponse(),
    );
    expect(final.output_text).toBe('Checking Paris and Tōkyō 👋');
  });

  test('interleaved blocks (text still open while tool calls stream, as chat upstreams do) still parse', async () => {
    const chunks = encodeStream([
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 2 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Let me look.' },
      { type: 'tool-call-start', index: 1, id: 'call_1', name: 'a' },
      { type: 'tool-call-start', index: 2, id: 'call_2', name: 'b' },
      { type: 'tool-call-delta', index: 2, argumentsDelta: '{}' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":1}' },
      { type: 'text-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
      { type: 'tool-call-end', index: 2 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
      { type: 'usage', usage },
    ]);
    const final = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses.stream({ model: 'gpt-4o', input: 'hi' }).finalResponse(),
    );
    expect(final.output_text).toBe('Let me look.');
    expect(final.output.map((item) => (item.type === 'function_call' ? item.arguments : item.type))).toEqual([
      'message',
      '{"x":1}',
      '{}',
    ]);
    expect(final.usage?.output_tokens).toBe(40);
  });

  test('a length finish is response.incomplete, which the SDK accepts', async () => {
    const chunks = encodeStream([
      { type: 'response-start', id: 'resp_1', model: 'm', created: 3 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Once upon' },
      { type: 'text-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'length', raw: 'max_tokens' }, usage },
    ]);
    expect(wireEvents(chunks).at(-1)?.event).toBe('response.incomplete');
    const final = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses.stream({ model: 'm', input: 'hi' }).finalResponse(),
    );
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(final.output_text).toBe('Once upon');
  });

  test('an error ends the stream with `error` and `response.failed`; the SDK raises the error', async () => {
    const chunks = encodeStream([
      { type: 'response-start', id: 'resp_1', model: 'm', created: 3 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hel' },
      { type: 'error', message: 'the upstream stream broke off', code: 'upstream_error' },
      { type: 'text-delta', index: 0, text: 'lo' },
    ]);
    const events = wireEvents(chunks);
    expect(events.at(-2)).toEqual({
      event: 'error',
      data: {
        type: 'error',
        sequence_number: 5,
        code: 'upstream_error',
        message: 'the upstream stream broke off',
        param: null,
      },
    });
    expect(events.at(-1)).toMatchObject({
      event: 'response.failed',
      data: {
        sequence_number: 6,
        response: {
          id: 'resp_1',
          status: 'failed',
          error: { code: 'server_error', message: 'the upstream stream broke off' },
          usage: null,
        },
      },
    });
    const seen = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, async (client) => {
      const types: string[] = [];
      for await (const event of await client.responses.create({ model: 'm', input: 'hi', stream: true }))
        types.push(event.type);
      return types;
    });
    expect(seen.slice(-2)).toEqual(['error', 'response.failed']);
    const raised = await withOpenAIClient({ contentType: 'text/event-stream', chunks }, (client) =>
      client.responses
        .stream({ model: 'm', input: 'hi' })
        .finalResponse()
        .catch((error: unknown) => error),
    );
    expect(raised).toMatchObject({ type: 'error', message: 'the upstream stream broke off' });
  });

  test('an error after a finish that waits for usage is no completion', () => {
    const streamEncoder = codec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 9,
      model: 'm',
    });
    streamEncoder.push({ type: 'response-start', id: 'resp_1', model: 'm', created: 3 });
    streamEncoder.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } });
    const events = wireEvents([
      streamEncoder.push({ type: 'error', message: 'idle', code: 'upstream_timeout' }),
    ]);
    expect(events.map((event) => event.event)).toEqual(['error', 'response.failed']);
    expect(streamEncoder.end()).toBe('');
  });

  test('an error before anything else still opens the response, then fails it', () => {
    const streamEncoder = codec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 9,
      model: 'm',
    });
    const events = wireEvents([streamEncoder.push({ type: 'error', message: 'bad frame' })]);
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'error',
      'response.failed',
    ]);
  });
});

describe('stream encoder: usage', () => {
  test('a finish without usage waits for the trailing usage', () => {
    const streamEncoder = codec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 99,
      model: 'm',
    });
    streamEncoder.push({ type: 'response-start', id: 'resp_1', model: 'm', created: 3 });
    expect(streamEncoder.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } })).toBe('');
    const completed = wireEvents([streamEncoder.push({ type: 'usage', usage })]);
    expect(completed).toMatchObject([
      { event: 'response.completed', data: { response: { usage: { input_tokens: 120 } } } },
    ]);
    expect(streamEncoder.end()).toBe('');
  });

  test('with no usage at all, the gateway estimate stands in for input tokens and the loss is recorded', () => {
    const losses = new LossLog();
    const chunks = encodeStream(
      [
        { type: 'response-start', id: 'resp_1', model: 'm', created: 3 },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      losses,
    );
    expect(wireEvents(chunks).at(-1)).toMatchObject({
      event: 'response.completed',
      data: { response: { usage: { input_tokens: 99, output_tokens: 0, total_tokens: 99 } } },
    });
    expect(losses.losses.map((loss) => loss.path)).toEqual([
      'stream.usage.input_tokens',
      'stream.usage.output_tokens',
    ]);
  });

  test('end() without a finish closes open items and completes', () => {
    const chunks = encodeStream([
      { type: 'response-start', id: 'resp_1', model: 'm', created: 3 },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
    ]);
    expect(
      wireEvents(chunks)
        .map((event) => event.event)
        .slice(-3),
    ).toEqual(['response.function_call_arguments.done', 'response.output_item.done', 'response.completed']);
  });
});

describe('stream round trip', () => {
  test.each(['stream-text.txt', 'stream-reasoning-tools.txt', 'stream-incomplete.txt', 'stream-failed.txt'])(
    '%s: decode -> encode -> decode gives the same canonical events',
    (name) => {
      const decodeText = (text: string) =>
        decodeBytes({
          bytes: encoder.encode(text),
          createDecoder: (losses) => codec.createStreamDecoder(losses),
          losses: new LossLog(),
        });
      const first = decodeText(fixtureText(name));
      const streamEncoder = codec.createStreamEncoder({
        losses: new LossLog(),
        estimatedInputTokens: 0,
        model: 'gpt-5-2025-08-07',
      });
      const text = first.map((event) => streamEncoder.push(event)).join('') + streamEncoder.end();
      const second = decodeText(text);
      assertStreamGrammar(second);
      const withoutStart = (events: StreamEvent[]) =>
        events
          .map((event) =>
            event.type === 'finish' && event.usage
              ? { ...event, usage: { ...event.usage, raw: undefined } }
              : event,
          )
          .slice(1);
      expect(withoutStart(second)).toEqual(withoutStart(first));
      expect(second[0]).toMatchObject({ type: 'response-start', id: (first[0] as { id: string }).id });
    },
  );
});
