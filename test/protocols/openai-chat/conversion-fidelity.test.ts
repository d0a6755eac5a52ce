import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage, type Usage } from '../../../src/ir/usage.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';

const base: CanonicalRequest = {
  model: 'gpt-4o',
  system: [],
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  stream: false,
  extensions: {},
};

function encodeRequest(request: CanonicalRequest) {
  const losses = new LossLog();
  return { body: openAIChatCodec.encodeRequest(request, { losses, defaultMaxTokens: 1024 }), losses };
}

function decodeRequest(body: Record<string, unknown>) {
  return openAIChatCodec.decodeRequest({ model: 'gpt-4o', ...body }, { losses: new LossLog() });
}

const reply = (overrides: Partial<CanonicalReply>): CanonicalReply => ({
  id: 'chatcmpl-1',
  model: 'm',
  created: 1,
  parts: [{ type: 'text', text: 'x' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: emptyUsage(),
  extensions: {},
  ...overrides,
});

function finishOf(body: unknown): unknown {
  return (body as { choices: { finish_reason: unknown }[] }).choices[0]?.finish_reason;
}

function encodeStream(events: readonly StreamEvent[], includeUsage = false): string {
  const encoder = openAIChatCodec.createStreamEncoder({
    losses: new LossLog(),
    estimatedInputTokens: 1,
    model: 'm',
    includeUsage,
  });
  return events.map((event) => encoder.push(event)).join('') + encoder.end();
}

describe('finish mapping (https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices)', () => {
  const decodeFinish = (message: Record<string, unknown>, finish: string) =>
    openAIChatCodec.decodeReply(
      { id: 'x', choices: [{ index: 0, message, finish_reason: finish }] },
      new LossLog(),
    ).finishReason;

  test('content_filter, and a refusal message finishing stop, are the content filter', () => {
    expect(decodeFinish({ content: '' }, 'content_filter')).toEqual({
      unified: 'content-filter',
      raw: 'content_filter',
    });
    expect(decodeFinish({ content: null, refusal: "I can't help." }, 'stop')).toEqual({
      unified: 'content-filter',
      raw: 'stop',
    });
    expect(decodeFinish({ content: 'fine', refusal: null }, 'stop')).toEqual({
      unified: 'stop',
      raw: 'stop',
    });
  });

  test('content-filter goes out as content_filter, tool-calls as tool_calls, in replies and streams', () => {
    const filtered = { unified: 'content-filter', raw: 'refusal' } as const;
    expect(finishOf(openAIChatCodec.encodeReply(reply({ finishReason: filtered }), new LossLog()))).toBe(
      'content_filter',
    );
    const call = { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' } as const;
    expect(
      finishOf(
        openAIChatCodec.encodeReply(
          reply({ parts: [call], finishReason: { unified: 'tool-calls', raw: 'tool_use' } }),
          new LossLog(),
        ),
      ),
    ).toBe('tool_calls');
    const start: StreamEvent = { type: 'response-start', id: 'x', model: 'm', created: 1 };
    expect(encodeStream([start, { type: 'finish', finishReason: filtered }])).toContain(
      '"finish_reason":"content_filter"',
    );
    expect(
      encodeStream([
        start,
        { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
        { type: 'tool-call-end', index: 0 },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
      ]),
    ).toContain('"finish_reason":"tool_calls"');
  });
});

describe('in-stream errors', () => {
  test('the encoder ends the stream with data: {"error": {message, type, code}} and no [DONE]', () => {
    const text = encodeStream([
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'error', message: 'Overloaded', code: 'overloaded_error', status: 529 },
    ]);
    expect(text.split('\n\n').filter(Boolean).at(-1)).toBe(
      'data: {"error":{"message":"Overloaded","type":"gateway_api_error","param":null,"code":"overloaded_error"}}',
    );
    expect(text).not.toContain('[DONE]');
  });
});

describe('structured output (https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format)', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

  test('json_schema with name and strict decodes and encodes back unchanged', () => {
    const responseFormat = {
      type: 'json_schema',
      json_schema: { name: 'answer', description: 'The answer.', schema, strict: true },
    };
    const decoded = decodeRequest({
      messages: [{ role: 'user', content: 'hi' }],
      response_format: responseFormat,
    });
    expect(decoded.responseFormat).toEqual({
      type: 'json-schema',
      name: 'answer',
      description: 'The answer.',
      schema,
      strict: true,
    });
    expect(encodeRequest(decoded).body.response_format).toEqual(responseFormat);
  });

  test('a schema that came without strict is not claimed strict', () => {
    const { body } = encodeRequest({
      ...base,
      responseFormat: { type: 'json-schema', name: 'answer', schema },
    });
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema } });
    const decoded = decodeRequest({
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    });
    expect(decoded.responseFormat).toEqual({ type: 'json-schema', name: 'answer', schema });
  });

  test('json_object and strict function tools', () => {
    const decoded = decodeRequest({
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_object' },
      tools: [
        { type: 'function', function: { name: 'f', parameters: schema, strict: true } },
        { type: 'function', function: { name: 'g', parameters: schema } },
      ],
    });
    expect(decoded.responseFormat).toEqual({ type: 'json-object' });
    const { body } = encodeRequest(decoded);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'f', parameters: schema, strict: true } },
      { type: 'function', function: { name: 'g', parameters: schema } },
    ]);
  });
});

describe('PDF documents (https://platform.openai.com/docs/guides/pdf-files)', () => {
  test('a base64 file part with its name, both ways', () => {
    const part = {
      type: 'file',
      file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' },
    };
    const decoded = decodeRequest({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise.' }, part] }],
    });
    expect(decoded.messages[0]?.parts[1]).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      source: { kind: 'base64', data: 'JVBERi0xLjQ=' },
      filename: 'report.pdf',
    });
    const { body, losses } = encodeRequest(decoded);
    expect((body.messages as { content: unknown[] }[])[0]?.content[1]).toEqual(part);
    expect(losses.losses).toEqual([]);
  });

  test('a PDF from another protocol without a name goes as file_data alone', () => {
    const { body } = encodeRequest({
      ...base,
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'file', mediaType: 'application/pdf', source: { kind: 'base64', data: 'JVBERi0=' } },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } }],
      },
    ]);
  });
});

describe('usage detail (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage)', () => {
  const wire = {
    prompt_tokens: 1200,
    completion_tokens: 300,
    total_tokens: 1500,
    prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 256, audio_tokens: 0 },
  };

  test('cached and reasoning tokens are read from a reply and a stream', () => {
    const decoded = openAIChatCodec.decodeReply(
      { id: 'x', choices: [{ index: 0, message: { content: 'a' }, finish_reason: 'stop' }], usage: wire },
      new LossLog(),
    ).usage;
    expect(decoded).toMatchObject({
      inputTokens: 1200,
      cacheReadTokens: 1024,
      outputTokens: 300,
      reasoningTokens: 256,
    });
    const decoder = openAIChatCodec.createStreamDecoder(new LossLog());
    const events = [
      ...decoder.push({
        data: JSON.stringify({ id: 'x', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      }),
      ...decoder.push({ data: JSON.stringify({ id: 'x', choices: [], usage: wire }) }),
    ];
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      usage: { inputTokens: 1200, cacheReadTokens: 1024, outputTokens: 300, reasoningTokens: 256 },
    });
  });

  test('and written to a reply and the usage chunk', () => {
    const usage: Usage = {
      ...emptyUsage(),
      inputTokens: 1200,
      cacheReadTokens: 1024,
      outputTokens: 300,
      reasoningTokens: 256,
    };
    const body = openAIChatCodec.encodeReply(reply({ usage }), new LossLog()) as { usage: unknown };
    const expected = {
      prompt_tokens: 1200,
      completion_tokens: 300,
      total_tokens: 1500,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 256 },
    };
    expect(body.usage).toEqual(expected);
    const text = encodeStream(
      [
        { type: 'response-start', id: 'x', model: 'm', created: 1 },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ],
      true,
    );
    expect(text).toContain(`"choices":[],"usage":${JSON.stringify(expected)}`);
  });
});
