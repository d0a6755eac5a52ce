import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalReply } from '../../../src/ir/reply.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import type { Usage } from '../../../src/ir/usage.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';

const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK';

const usage: Usage = {
  inputTokens: 1200,
  cacheReadTokens: 1000,
  cacheWriteTokens: 100,
  outputTokens: 90,
  reasoningTokens: 40,
  webSearchCalls: 0,
  estimated: false,
  raw: { input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 90 },
};

function reply(fields: Partial<CanonicalReply>): CanonicalReply {
  return {
    id: 'r1',
    model: 'm',
    created: 0,
    parts: [{ type: 'text', text: 'Hi.' }],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage,
    extensions: {},
    ...fields,
  };
}

function streamChunks(events: StreamEvent[]): unknown[] {
  const encoder = geminiCodec.createStreamEncoder({
    losses: new LossLog(),
    estimatedInputTokens: 1,
    model: 'm',
  });
  return events
    .map((event) => encoder.push(event))
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text.slice('data: '.length)) as unknown);
}

function decodeStream(chunks: unknown[]): StreamEvent[] {
  const decoder = geminiCodec.createStreamDecoder(new LossLog());
  return [
    ...chunks.flatMap((chunk) =>
      decoder.push({ event: undefined, id: undefined, data: JSON.stringify(chunk) }),
    ),
    ...decoder.end(),
  ];
}

// In-stream errors: https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
describe('gemini in-stream errors', () => {
  it('decodes {"error": {...}} as the error event, with the HTTP status its code stands for', () => {
    const events = decodeStream([
      {
        error: {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
        },
      },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'Resource has been exhausted (e.g. check quota).',
      code: 'RESOURCE_EXHAUSTED',
      status: 429,
    });
  });

  it.each([
    [
      { status: 529, code: 'overloaded_error' },
      { code: 503, status: 'UNAVAILABLE' },
    ],
    [
      { status: 429, code: 'rate_limit_exceeded' },
      { code: 429, status: 'RESOURCE_EXHAUSTED' },
    ],
    [{ status: 400 }, { code: 400, status: 'INVALID_ARGUMENT' }],
    [
      { status: 500, code: 'server_error' },
      { code: 500, status: 'INTERNAL' },
    ],
    [{ code: 'RESOURCE_EXHAUSTED' }, { code: 429, status: 'RESOURCE_EXHAUSTED' }],
    [{ code: 'upstream_timeout' }, { code: 504, status: 'DEADLINE_EXCEEDED' }],
    [{}, { code: 503, status: 'UNAVAILABLE' }],
  ])('ends a client stream with Gemini’s error chunk: %j -> %j', (error, expected) => {
    const chunks = streamChunks([
      { type: 'response-start', id: 'r1', model: 'm', created: 0 },
      { type: 'error', message: 'Overloaded', ...error },
      { type: 'text-delta', index: 0, text: 'after the end' },
    ]);
    expect(chunks).toEqual([{ error: { ...expected, message: 'Overloaded' } }]);
  });
});

// Finish reasons: https://ai.google.dev/api/generate-content#FinishReason
describe('gemini finish reasons', () => {
  it.each(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_SAFETY'])(
    'decodes %s as content-filter, in a reply and in a stream',
    (raw) => {
      const response = { candidates: [{ finishReason: raw, index: 0 }], responseId: 'r1', modelVersion: 'm' };
      expect(geminiCodec.decodeReply(response, new LossLog()).finishReason).toEqual({
        unified: 'content-filter',
        raw,
      });
      expect(decodeStream([response]).find((event) => event.type === 'finish')).toMatchObject({
        finishReason: { unified: 'content-filter', raw },
      });
    },
  );

  it('decodes a prompt blocked before any candidate as content-filter', () => {
    const response = { promptFeedback: { blockReason: 'BLOCKLIST' }, responseId: 'r1', modelVersion: 'm' };
    expect(geminiCodec.decodeReply(response, new LossLog()).finishReason).toEqual({
      unified: 'content-filter',
      raw: 'BLOCKLIST',
    });
  });

  it('writes content-filter as SAFETY and tool calls as STOP, in a reply and in a stream', () => {
    const filtered = geminiCodec.encodeReply(
      reply({ parts: [], finishReason: { unified: 'content-filter', raw: 'refusal' } }),
      new LossLog(),
    );
    expect(filtered).toMatchObject({ candidates: [{ finishReason: 'SAFETY' }] });
    const called = geminiCodec.encodeReply(
      reply({
        parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      }),
      new LossLog(),
    );
    expect(called).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });

    const finishes = (finishReason: CanonicalReply['finishReason']) =>
      streamChunks([
        { type: 'response-start', id: 'r1', model: 'm', created: 0 },
        { type: 'finish', finishReason },
      ]).map((chunk) => (chunk as { candidates: { finishReason: string }[] }).candidates[0]?.finishReason);
    expect(finishes({ unified: 'content-filter', raw: 'content_filter' })).toEqual(['SAFETY']);
    expect(finishes({ unified: 'tool-calls', raw: 'tool_calls' })).toEqual(['STOP']);
  });
});

function request(fields: Partial<CanonicalRequest>): CanonicalRequest {
  return { model: 'm', system: [], messages: [], tools: [], stream: false, extensions: {}, ...fields };
}

// Structured output: https://ai.google.dev/gemini-api/docs/structured-output
describe('gemini structured output', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

  it('writes a JSON schema as responseMimeType application/json with responseJsonSchema', () => {
    const body = geminiCodec.encodeRequest(
      request({
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        responseFormat: { type: 'json-schema', name: 'city', schema, strict: true },
      }),
      { losses: new LossLog(), defaultMaxTokens: 1 },
    );
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });

  it('reads responseJsonSchema, and the OpenAPI responseSchema as JSON Schema', () => {
    const decode = (generationConfig: Record<string, unknown>) =>
      geminiCodec.decodeRequest(
        { contents: [{ parts: [{ text: 'hi' }] }], generationConfig },
        {
          losses: new LossLog(),
          model: 'm',
          stream: false,
        },
      ).responseFormat;
    expect(decode({ responseMimeType: 'application/json', responseJsonSchema: schema })).toEqual({
      type: 'json-schema',
      name: 'response',
      schema,
    });
    expect(
      decode({
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
      }),
    ).toEqual({ type: 'json-schema', name: 'response', schema });
  });
});

// Documents: https://ai.google.dev/gemini-api/docs/document-processing
describe('gemini PDF documents', () => {
  it('writes a base64 PDF as inlineData and reads it back', () => {
    const pdf = {
      type: 'file' as const,
      mediaType: 'application/pdf',
      source: { kind: 'base64' as const, data: PDF },
      filename: 'report.pdf',
    };
    const body = geminiCodec.encodeRequest(
      request({ messages: [{ role: 'user', parts: [pdf, { type: 'text', text: 'Summarise.' }] }] }),
      { losses: new LossLog(), defaultMaxTokens: 1 },
    );
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'application/pdf', data: PDF, displayName: 'report.pdf' } },
          { text: 'Summarise.' },
        ],
      },
    ]);
    const decoded = geminiCodec.decodeRequest(body, { losses: new LossLog(), model: 'm', stream: false });
    expect(decoded.messages[0]?.parts[0]).toEqual(pdf);
  });
});

// Usage: https://ai.google.dev/api/generate-content#UsageMetadata
describe('gemini usage detail', () => {
  it('reads cached and thought tokens', () => {
    const decoded = geminiCodec.decodeReply(
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Hi.' }] }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: {
          promptTokenCount: 1200,
          candidatesTokenCount: 50,
          thoughtsTokenCount: 40,
          cachedContentTokenCount: 1000,
          totalTokenCount: 1290,
        },
      },
      new LossLog(),
    ).usage;
    expect(decoded).toMatchObject({
      inputTokens: 1200,
      cacheReadTokens: 1000,
      outputTokens: 90,
      reasoningTokens: 40,
    });
  });

  it('writes another vendor’s cache reads and reasoning tokens, in a reply and in a stream', () => {
    const expected = {
      promptTokenCount: 1200,
      candidatesTokenCount: 50,
      totalTokenCount: 1290,
      cachedContentTokenCount: 1000,
      thoughtsTokenCount: 40,
    };
    expect(geminiCodec.encodeReply(reply({}), new LossLog())).toMatchObject({ usageMetadata: expected });
    const chunks = streamChunks([
      { type: 'response-start', id: 'r1', model: 'm', created: 0 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ]);
    expect(chunks.at(-1)).toMatchObject({ usageMetadata: expected });
  });
});
