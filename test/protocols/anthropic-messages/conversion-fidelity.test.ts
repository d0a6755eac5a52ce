import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { emptyUsage, type Usage } from '../../../src/ir/usage.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { canonicalRequest, decodeChunks, parseSseJson } from './helpers.js';

const PDF = 'JVBERi0xLjQKJcfsj6IK';
const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };

function decode(body: Record<string, unknown>) {
  const losses = new LossLog();
  return { request: codec.decodeRequest(body, { losses }), losses: losses.losses };
}

function encode(request: Parameters<typeof codec.encodeRequest>[0]) {
  const losses = new LossLog();
  const body = codec.encodeRequest(request, { losses, defaultMaxTokens: 1024 });
  return { body, losses: losses.losses.map((loss) => `${loss.kind} ${loss.path}: ${loss.reason}`) };
}

describe('structured output (`OutputConfig.format`, a `JSONOutputFormat` in @anthropic-ai/sdk)', () => {
  it('sends a JSON schema as output_config.format', () => {
    const { body } = encode(
      canonicalRequest({ responseFormat: { type: 'json-schema', name: 'response', schema, strict: true } }),
    );
    expect(body).toMatchInlineSnapshot(`
      {
        "max_tokens": 1024,
        "messages": [
          {
            "content": "Hello",
            "role": "user",
          },
        ],
        "model": "claude-test",
        "output_config": {
          "format": {
            "schema": {
              "properties": {
                "answer": {
                  "type": "number",
                },
              },
              "required": [
                "answer",
              ],
              "type": "object",
            },
            "type": "json_schema",
          },
        },
      }
    `);
  });

  it('reads output_config.format, and the beta’s output_format, as the response format', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
    const ga = decode({ ...base, output_config: { format: { type: 'json_schema', schema } } });
    expect(ga.request.responseFormat).toEqual({ type: 'json-schema', name: 'response', schema });
    expect(ga.request.extensions).toEqual({});
    const beta = decode({ ...base, output_format: { type: 'json_schema', schema } });
    expect(beta.request.responseFormat).toEqual({ type: 'json-schema', name: 'response', schema });
    expect(beta.request.extensions).toEqual({});
    expect(encode(beta.request).body.output_config).toEqual({ format: { type: 'json_schema', schema } });
  });
});

describe('base64 PDF documents', () => {
  it('reads a document block as a PDF file part and writes it back as the same block', () => {
    const block = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: PDF },
      title: 'report.pdf',
    };
    const { request } = decode({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise.' }, block] }],
    });
    expect(request.messages[0]?.parts[1]).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      source: { kind: 'base64', data: PDF },
      filename: 'report.pdf',
    });
    const { body, losses } = encode(request);
    expect((body.messages as { content: unknown[] }[])[0]?.content[1]).toEqual(block);
    expect(losses).toEqual([]);
  });

  it('writes a chat completions PDF data URL as a base64 document block', () => {
    const { body } = encode(
      canonicalRequest({
        messages: [
          {
            role: 'user',
            parts: [
              {
                type: 'file',
                mediaType: 'application/pdf',
                source: { kind: 'url', url: `data:application/pdf;base64,${PDF}` },
              },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toMatchInlineSnapshot(`
      [
        {
          "content": [
            {
              "source": {
                "data": "JVBERi0xLjQKJcfsj6IK",
                "media_type": "application/pdf",
                "type": "base64",
              },
              "type": "document",
            },
          ],
          "role": "user",
        },
      ]
    `);
  });
});

describe('usage detail', () => {
  const usage: Usage = {
    ...emptyUsage(),
    inputTokens: 1000,
    cacheReadTokens: 600,
    cacheWriteTokens: 300,
    cacheWrite5mTokens: 100,
    cacheWrite1hTokens: 200,
    outputTokens: 80,
    reasoningTokens: 50,
  };
  const reply: CanonicalReply = {
    id: 'r1',
    model: 'gemini-2.5-pro',
    created: 1,
    parts: [{ type: 'text', text: 'Hi' }],
    finishReason: { unified: 'stop', raw: 'STOP' },
    usage,
    extensions: {},
  };

  it('writes cache reads, cache writes by TTL and thinking tokens, and reads them back', () => {
    const message = codec.encodeReply(reply, new LossLog()) as { usage: unknown };
    expect(message.usage).toMatchInlineSnapshot(`
      {
        "cache_creation": {
          "ephemeral_1h_input_tokens": 200,
          "ephemeral_5m_input_tokens": 100,
        },
        "cache_creation_input_tokens": 300,
        "cache_read_input_tokens": 600,
        "input_tokens": 100,
        "output_tokens": 80,
        "output_tokens_details": {
          "thinking_tokens": 50,
        },
      }
    `);
    const decoded = codec.decodeReply(message, new LossLog()).usage;
    expect({ ...decoded, raw: undefined }).toEqual({ ...usage, raw: undefined, estimated: false });
  });

  it('states the same totals at the end of a stream', () => {
    const losses = new LossLog();
    const encoder = codec.createStreamEncoder({ losses, estimatedInputTokens: 5, model: 'm' });
    const text = [
      encoder.push({ type: 'response-start', id: 'r1', model: 'm', created: 1 }),
      encoder.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage }),
      encoder.end(),
    ].join('');
    const finish = decodeChunks(
      codec.createStreamDecoder(new LossLog()),
      new TextEncoder().encode(text),
      [],
    ).at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      usage: {
        inputTokens: 1000,
        cacheReadTokens: 600,
        cacheWriteTokens: 300,
        outputTokens: 80,
        reasoningTokens: 50,
      },
    });
  });
});

describe('finish reasons in a stream', () => {
  it.each([
    [{ unified: 'content-filter', raw: 'SAFETY' }, 'refusal'],
    [{ unified: 'tool-calls', raw: 'STOP' }, 'tool_use'],
    [{ unified: 'length', raw: 'MAX_TOKENS' }, 'max_tokens'],
  ] as const)('writes %o as stop_reason %s', (finishReason, stopReason) => {
    const encoder = codec.createStreamEncoder({ losses: new LossLog(), estimatedInputTokens: 5, model: 'm' });
    const text = [
      encoder.push({ type: 'response-start', id: 'r1', model: 'm', created: 1 }),
      encoder.push({ type: 'finish', finishReason, usage: emptyUsage() }),
    ].join('');
    expect(parseSseJson(text).at(-2)?.data).toMatchObject({ delta: { stop_reason: stopReason } });
  });

  it('reads stop_reason refusal as content-filter', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":3}}}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":0}}\n\n' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const events = decodeChunks(codec.createStreamDecoder(new LossLog()), new TextEncoder().encode(text), []);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'content-filter', raw: 'refusal' } });
  });
});

describe('in-stream errors', () => {
  it.each([
    ['overloaded_error', 529],
    ['api_error', 500],
    ['rate_limit_error', 429],
    ['request_too_large', 413],
    ['timeout_error', 504],
    ['invalid_request_error', 400],
  ])('reads an %s event with status %s', (type, status) => {
    const text = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message: 'It failed.' } })}\n\n`;
    const events = decodeChunks(codec.createStreamDecoder(new LossLog()), new TextEncoder().encode(text), []);
    expect(events).toEqual<StreamEvent[]>([{ type: 'error', message: 'It failed.', code: type, status }]);
  });

  it('reads an error of an unknown type without a status', () => {
    const text =
      'event: error\ndata: {"type":"error","error":{"type":"brand_new_error","message":"Odd."}}\n\n';
    const events = decodeChunks(codec.createStreamDecoder(new LossLog()), new TextEncoder().encode(text), []);
    expect(events).toEqual([{ type: 'error', message: 'Odd.', code: 'brand_new_error' }]);
  });
});

describe('lenient reading of what the upstream sends', () => {
  it('reads a member of the wrong type as absent', () => {
    const reply = codec.decodeReply(
      {
        id: 5,
        model: ['x'],
        content: 'text',
        stop_reason: 7,
        stop_sequence: {},
        usage: { input_tokens: 3, output_tokens: 2 },
      },
      new LossLog(),
    );
    expect(reply).toMatchObject({
      id: '',
      model: '',
      parts: [],
      finishReason: { unified: 'other', raw: undefined },
      usage: { inputTokens: 3, outputTokens: 2 },
      extensions: {},
    });
  });

  it('skips stream events whose members have the wrong types, and breaks on one that is not an object', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":1,"model":"claude"}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":"0","content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":7}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":false}}\n\n' +
      'event: message_delta\ndata: ["not", "an", "object"]\n\n';
    const decoder = codec.createStreamDecoder(new LossLog());
    const events = decodeChunks(decoder, new TextEncoder().encode(text), []);
    expect(events).toEqual([
      { type: 'response-start', id: '', model: 'claude', created: expect.any(Number) },
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, text: 'Hi' },
    ]);
    expect(decoder.broken()).toBeDefined();
  });
});
