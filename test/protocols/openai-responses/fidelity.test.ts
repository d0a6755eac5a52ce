import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { defaultFakeUsage, type ReplyContent } from '../../fakes/fake-upstream.js';
import { openaiResponsesReply } from '../../fakes/openai-responses-reply.js';
import { decodeBytes, readSseEvents } from './sse-helpers.js';

const textEncoder = new TextEncoder();

function fakeReply(body: Record<string, unknown>, overrides: Partial<ReplyContent> = {}) {
  return openaiResponsesReply(
    {
      method: 'POST',
      url: '/v1/responses',
      path: '/v1/responses',
      query: new URLSearchParams(),
      headers: {},
      body,
    },
    {
      text: 'Hello.',
      thinking: 'Hmm.',
      usage: defaultFakeUsage,
      toolCall: undefined,
      toolArguments: '{"city":"Paris"}',
      toolCallCount: 1,
      interleaveToolCalls: false,
      refusal: false,
      omitUsage: false,
      ...overrides,
    },
    (prefix) => `${prefix}fake1`,
  );
}

function decodeStream(text: string): StreamEvent[] {
  return decodeBytes({
    bytes: textEncoder.encode(text),
    createDecoder: (losses) => codec.createStreamDecoder(losses),
    losses: new LossLog(),
  });
}

function encodeStream(events: StreamEvent[]): Record<string, unknown>[] {
  const encoder = codec.createStreamEncoder({ losses: new LossLog(), estimatedInputTokens: 1, model: 'm' });
  const text = [...events.map((event) => encoder.push(event)), encoder.end()].join('');
  return readSseEvents(textEncoder.encode(text)).map(
    (event) => JSON.parse(event.data) as Record<string, unknown>,
  );
}

const usage = {
  inputTokens: 120,
  cacheReadTokens: 100,
  cacheWriteTokens: 0,
  outputTokens: 40,
  reasoningTokens: 12,
  webSearchCalls: 0,
  estimated: false,
};

const reply = (overrides: Partial<CanonicalReply>): CanonicalReply => ({
  id: 'msg_1',
  model: 'm',
  created: 1,
  parts: [{ type: 'text', text: 'x' }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage,
  extensions: {},
  ...overrides,
});

describe('finish mapping (https://platform.openai.com/docs/api-reference/responses/object#responses/object-status)', () => {
  test('a refusal part is the model refusing: content-filter, in JSON and streams', () => {
    const json = fakeReply({ model: 'gpt-5', input: 'hi' }, { refusal: true });
    const decoded = codec.decodeReply(json.kind === 'json' ? json.body : undefined, new LossLog());
    expect(decoded.finishReason).toEqual({ unified: 'content-filter', raw: 'refusal' });
    expect(decoded.parts).toMatchObject([{ type: 'text', text: "I'm sorry, but I can't help with that." }]);
    const sse = fakeReply({ model: 'gpt-5', input: 'hi', stream: true }, { refusal: true });
    const events = decodeStream(sse.kind === 'sse' ? sse.events.join('') : '');
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'content-filter', raw: 'refusal' },
    });
  });

  test('an incomplete response cut by the content filter is content-filter, in JSON and streams', () => {
    const response = {
      id: 'resp_1',
      output: [],
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
    };
    expect(codec.decodeReply(response, new LossLog()).finishReason).toEqual({
      unified: 'content-filter',
      raw: 'content_filter',
    });
    const events = decodeStream(
      `event: response.incomplete\ndata: ${JSON.stringify({ type: 'response.incomplete', response })}\n\n`,
    );
    expect(events.at(-1)).toMatchObject({
      finishReason: { unified: 'content-filter', raw: 'content_filter' },
    });
  });

  test('content-filter is written as an incomplete response with reason content_filter, in JSON and streams', () => {
    const finishReason = { unified: 'content-filter' as const, raw: 'SAFETY' };
    expect(codec.encodeReply(reply({ finishReason }), new LossLog())).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
    });
    const last = encodeStream([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'finish', finishReason, usage },
    ]).at(-1);
    expect(last).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'content_filter' } },
    });
  });

  test('tool calls are a completed response with its function_call items, in JSON and streams', () => {
    const finishReason = { unified: 'tool-calls' as const, raw: 'tool_use' };
    const call = { type: 'tool-call' as const, id: 'call_1', name: 'f', arguments: '{}' };
    const json = codec.encodeReply(reply({ parts: [call], finishReason }), new LossLog());
    expect(json).toMatchObject({
      status: 'completed',
      incomplete_details: null,
      output: [{ type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' }],
    });
    const last = encodeStream([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', finishReason, usage },
    ]).at(-1);
    expect(last).toMatchObject({
      type: 'response.completed',
      response: { status: 'completed', output: [{ type: 'function_call', status: 'completed' }] },
    });
  });

  test('a forced call from the fake (several of them) decodes as tool-calls', () => {
    const body = {
      model: 'gpt-5',
      input: 'hi',
      tools: [{ type: 'function', name: 'f', parameters: {} }],
      tool_choice: { type: 'function', name: 'f' },
    };
    const json = fakeReply(body, { toolCallCount: 2 });
    const decoded = codec.decodeReply(json.kind === 'json' ? json.body : undefined, new LossLog());
    expect(decoded.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(decoded.parts.map((part) => part.type)).toEqual(['tool-call', 'tool-call']);
  });
});

describe('in-stream errors', () => {
  test("the upstream's message and code end a client's stream with `error` and `response.failed`", () => {
    const events = encodeStream([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'error', message: 'Rate limit reached for gpt-5.', status: 429 },
    ]);
    expect(events.slice(-2)).toEqual([
      {
        type: 'error',
        sequence_number: 2,
        code: 'rate_limit_exceeded',
        message: 'Rate limit reached for gpt-5.',
        param: null,
      },
      expect.objectContaining({
        type: 'response.failed',
        sequence_number: 3,
        response: expect.objectContaining({
          status: 'failed',
          error: { code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5.' },
        }),
      }),
    ]);
    const overloaded = encodeStream([
      { type: 'error', message: 'Overloaded', code: 'overloaded_error', status: 529 },
    ]);
    expect(overloaded.slice(-2)).toMatchObject([
      { type: 'error', code: 'overloaded_error', message: 'Overloaded' },
      { type: 'response.failed', response: { error: { code: 'server_error', message: 'Overloaded' } } },
    ]);
  });

  test('a nested error object (as some compatible servers send it) is read too', () => {
    const events = decodeStream(
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: 'Busy.', code: 'service_unavailable' } })}\n\n`,
    );
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Busy.',
      code: 'service_unavailable',
      status: 503,
    });
  });
});

describe('structured output (https://platform.openai.com/docs/guides/structured-outputs)', () => {
  const canonical = (overrides: Partial<CanonicalRequest>): CanonicalRequest => ({
    model: 'gpt-5',
    system: [],
    messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    tools: [],
    stream: false,
    extensions: {},
    ...overrides,
  });
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  };

  test('the IR json schema is text.format json_schema with its name; strict only when the IR says so', () => {
    const encode = (request: CanonicalRequest) =>
      codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 1 }).text;
    expect(encode(canonical({ responseFormat: { type: 'json-schema', name: 'place', schema } })))
      .toMatchInlineSnapshot(`
      {
        "format": {
          "name": "place",
          "schema": {
            "additionalProperties": false,
            "properties": {
              "city": {
                "type": "string",
              },
            },
            "required": [
              "city",
            ],
            "type": "object",
          },
          "type": "json_schema",
        },
      }
    `);
    expect(
      encode(canonical({ responseFormat: { type: 'json-schema', name: 'place', schema, strict: true } })),
    ).toEqual({
      format: { type: 'json_schema', name: 'place', schema, strict: true },
    });
    expect(encode(canonical({ responseFormat: { type: 'json-object' } }))).toEqual({
      format: { type: 'json_object' },
    });
  });

  test('text.format json_schema decodes to the IR and back', () => {
    const body = {
      model: 'gpt-5',
      input: 'hi',
      text: { format: { type: 'json_schema', name: 'place', schema, strict: true }, verbosity: 'low' },
    };
    const request = codec.decodeRequest(body, { losses: new LossLog() });
    expect(request.responseFormat).toEqual({ type: 'json-schema', name: 'place', schema, strict: true });
    expect(codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 1 }).text).toEqual(
      body.text,
    );
  });
});

describe('PDF documents (https://platform.openai.com/docs/guides/pdf-files)', () => {
  test('input_file with a base64 data URL and a file name, both ways', () => {
    const file = {
      type: 'input_file',
      filename: 'report.pdf',
      file_data: 'data:application/pdf;base64,JVBERi0xLjQ=',
    };
    const request = codec.decodeRequest(
      { model: 'gpt-5', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Sum up.' }, file] }] },
      { losses: new LossLog() },
    );
    expect(request.messages[0]!.parts[1]).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      source: { kind: 'base64', data: 'JVBERi0xLjQ=' },
      filename: 'report.pdf',
    });
    // From another protocol (no Responses extension): the same wire form.
    const body = codec.encodeRequest(
      { ...request, extensions: {} },
      { losses: new LossLog(), defaultMaxTokens: 1 },
    );
    expect(body.input).toEqual([{ role: 'user', content: [{ type: 'input_text', text: 'Sum up.' }, file] }]);
  });
});

describe('usage detail (https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage)', () => {
  const wire = {
    input_tokens: 120,
    input_tokens_details: { cached_tokens: 100 },
    output_tokens: 40,
    output_tokens_details: { reasoning_tokens: 12 },
    total_tokens: 160,
  };

  test('cached and reasoning tokens are read from the reply and the stream', () => {
    const decoded = codec.decodeReply(
      { id: 'resp_1', status: 'completed', output: [], usage: wire },
      new LossLog(),
    );
    expect(decoded.usage).toMatchObject({
      inputTokens: 120,
      cacheReadTokens: 100,
      outputTokens: 40,
      reasoningTokens: 12,
    });
    const events = decodeStream(
      `data: ${JSON.stringify({ type: 'response.completed', response: { status: 'completed', usage: wire } })}\n\n`,
    );
    expect(events.at(-1)).toMatchObject({ usage: { cacheReadTokens: 100, reasoningTokens: 12 } });
  });

  test('and written to the reply and the stream', () => {
    expect(codec.encodeReply(reply({}), new LossLog())).toMatchObject({ usage: wire });
    const last = encodeStream([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ]).at(-1);
    expect(last).toMatchObject({ response: { usage: wire } });
  });
});

describe('lenient upstream: a member of the wrong type is absent, never a crash', () => {
  test('in a reply', () => {
    const decoded = codec.decodeReply(
      {
        id: 5,
        model: null,
        status: 'completed',
        incomplete_details: 'none',
        output: [{ type: 'function_call', id: 'fc_1', call_id: 7, name: 'f', arguments: { a: 1 } }],
        usage: { input_tokens: 'many', output_tokens: 3, output_tokens_details: [] },
      },
      new LossLog(),
    );
    expect(decoded).toMatchObject({
      id: '',
      model: '',
      parts: [{ type: 'tool-call', id: 'fc_1', name: 'f', arguments: '' }],
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: undefined, outputTokens: 3, reasoningTokens: 0 },
    });
  });

  test('in a stream', () => {
    const events = decodeStream(
      [
        { type: 'response.created', response: { id: ['x'], model: 'm', created_at: 'now' } },
        { type: 'response.output_text.delta', output_index: '0', content_index: 0, delta: 42 },
        { type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Hi' },
        {
          type: 'response.completed',
          response: { status: 'completed', usage: { input_tokens: 1, output_tokens: true } },
        },
      ]
        .map((data) => `data: ${JSON.stringify(data)}\n\n`)
        .join(''),
    );
    expect(events).toEqual([
      { type: 'response-start', id: '', model: 'm', created: 0 },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
      { type: 'text-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'completed' },
        usage: expect.objectContaining({ inputTokens: 1, outputTokens: undefined }),
      },
    ]);
  });
});
