import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { fixtureText, serve, sseEvents, type LocalServer } from './helpers.js';

const usage = {
  inputTokens: 2100,
  cacheReadTokens: 2000,
  cacheWriteTokens: 0,
  outputTokens: 150,
  reasoningTokens: 40,
  webSearchCalls: 0,
  estimated: false,
};

/** Events as a Claude stream decodes: signed thinking, text, two interleaved tool calls. */
const claudeEvents: StreamEvent[] = [
  {
    type: 'response-start',
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    model: 'claude-sonnet-4-5',
    created: 1735787045,
  },
  { type: 'reasoning-start', index: 0 },
  { type: 'reasoning-delta', index: 0, text: 'Both cities, ' },
  { type: 'reasoning-delta', index: 0, text: 'in parallel.' },
  { type: 'reasoning-end', index: 0, signature: { issuer: 'anthropic', value: 'EqQBCkYIBhgCIkB' } },
  { type: 'text-start', index: 1 },
  { type: 'text-delta', index: 1, text: 'Checking ' },
  { type: 'text-delta', index: 1, text: 'the weather — ☀️.' },
  { type: 'text-end', index: 1 },
  { type: 'tool-call-start', index: 2, id: 'toolu_01A', name: 'get_weather' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '{"city":' },
  { type: 'tool-call-start', index: 3, id: 'toolu_01B', name: 'get_weather' },
  { type: 'tool-call-delta', index: 3, argumentsDelta: '{"city":"Tokyo"}' },
  { type: 'tool-call-delta', index: 2, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 3 },
  { type: 'tool-call-end', index: 2 },
  { type: 'usage', usage },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
];

function encode(events: StreamEvent[], losses = new LossLog()): string[] {
  const encoder = geminiCodec.createStreamEncoder({ losses, estimatedInputTokens: 321, model: 'my-model' });
  return [...events.map((event) => encoder.push(event)), encoder.end()].filter((text) => text !== '');
}

async function consume(server: LocalServer): Promise<GenerateContentResponse[]> {
  const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.origin } });
  const stream = await client.models.generateContentStream({ model: 'my-model', contents: 'Weather?' });
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('gemini stream encoder', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('writes one chunk per delta, whole calls at their end, and a last chunk with finish and usage', () => {
    const chunks = encode(claudeEvents);
    expect(chunks.every((chunk) => chunk.startsWith('data: {') && chunk.endsWith('}\r\n\r\n'))).toBe(true);
    expect(chunks.map((chunk) => JSON.parse(chunk.slice('data: '.length)) as unknown)).toMatchInlineSnapshot(`
      [
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "Both cities, ",
                    "thought": true,
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "in parallel.",
                    "thought": true,
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "",
                    "thought": true,
                    "thoughtSignature": "anthropic:EqQBCkYIBhgCIkB",
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "Checking ",
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "the weather — ☀️.",
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "functionCall": {
                      "args": {
                        "city": "Tokyo",
                      },
                      "id": "toolu_01B",
                      "name": "get_weather",
                    },
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "functionCall": {
                      "args": {
                        "city": "Paris",
                      },
                      "id": "toolu_01A",
                      "name": "get_weather",
                    },
                  },
                ],
                "role": "model",
              },
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
        },
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "text": "",
                  },
                ],
                "role": "model",
              },
              "finishReason": "STOP",
              "index": 0,
            },
          ],
          "modelVersion": "my-model",
          "responseId": "msg_01XFDUDYJgAACzvnptvVoYEL",
          "usageMetadata": {
            "cachedContentTokenCount": 2000,
            "candidatesTokenCount": 110,
            "promptTokenCount": 2100,
            "thoughtsTokenCount": 40,
            "totalTokenCount": 2250,
          },
        },
      ]
    `);
  });

  it('is parsed by @google/genai models.generateContentStream(), text getter included', async () => {
    server = await serve({ contentType: 'text/event-stream', body: encode(claudeEvents) });
    const chunks = await consume(server);
    expect(server.requests[0]?.url).toBe('/v1beta/models/my-model:streamGenerateContent?alt=sse');
    expect(chunks).toHaveLength(8);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      undefined,
      undefined,
      undefined,
      'Checking ',
      'the weather — ☀️.',
      undefined,
      undefined,
      '',
    ]);
    expect(chunks.flatMap((chunk) => chunk.functionCalls ?? [])).toEqual([
      { id: 'toolu_01B', name: 'get_weather', args: { city: 'Tokyo' } },
      { id: 'toolu_01A', name: 'get_weather', args: { city: 'Paris' } },
    ]);
    const last = chunks.at(-1);
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata).toEqual({
      promptTokenCount: 2100,
      candidatesTokenCount: 110,
      totalTokenCount: 2250,
      cachedContentTokenCount: 2000,
      thoughtsTokenCount: 40,
    });
    expect(chunks.every((chunk) => chunk.responseId === 'msg_01XFDUDYJgAACzvnptvVoYEL')).toBe(true);
    expect(chunks.every((chunk) => chunk.modelVersion === 'my-model')).toBe(true);
  });

  it('re-encodes a Gemini stream so that the SDK reads the same text, thoughts and signature', async () => {
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    const bytes = new TextEncoder().encode(fixtureText('stream-thoughts-text.txt'));
    const events = [...sseEvents(bytes).flatMap((event) => decoder.push(event)), ...decoder.end()];
    server = await serve({ contentType: 'text/event-stream', body: encode(events) });
    const chunks = await consume(server);
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    expect(parts).toEqual([
      { text: '**Choosing a city**\n\nAutumn colours ', thought: true },
      { text: 'peak in November — 紅葉.', thought: true },
      { text: 'Kyoto in autumn ', thoughtSignature: 'CqUBAVKhc7k0dGhvdWdodC1zaWduYXR1cmU=' },
      { text: 'is best for maple leaves 🍁.' },
      { text: '' },
    ]);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe(
      'Kyoto in autumn is best for maple leaves 🍁.',
    );
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: 1200, thoughtsTokenCount: 77 });
  });

  it('sends an error event the SDK raises as an ApiError', async () => {
    const encoder = geminiCodec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 0,
      model: 'm',
    });
    const body = [
      encoder.push({ type: 'response-start', id: 'r', model: 'm', created: 0 }),
      encoder.push({ type: 'text-start', index: 0 }),
      encoder.push({ type: 'text-delta', index: 0, text: 'Hi' }),
      encoder.push({
        type: 'error',
        message: 'upstream sent nothing for 300 seconds',
        code: 'upstream_timeout',
      }),
    ];
    expect(body[3]).toBe(
      'data: {"error":{"code":504,"message":"upstream sent nothing for 300 seconds","status":"DEADLINE_EXCEEDED"}}\r\n\r\n',
    );
    server = await serve({ contentType: 'text/event-stream', body });
    const error = await consume(server).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(504);
  });

  it('puts a lone signature on the next part, states an estimated prompt when usage is unknown', () => {
    const losses = new LossLog();
    const chunks = encode(
      [
        { type: 'response-start', id: 'r1', model: 'm', created: 0 },
        { type: 'reasoning-start', index: 0 },
        { type: 'reasoning-end', index: 0, signature: { issuer: 'gemini', value: 'sig-a' } },
        { type: 'tool-call-start', index: 1, id: 'c1', name: 'f' },
        { type: 'tool-call-delta', index: 1, argumentsDelta: 'not json' },
        { type: 'tool-call-end', index: 1 },
        { type: 'reasoning-start', index: 2 },
        { type: 'reasoning-end', index: 2, signature: { issuer: 'gemini', value: 'sig-b' } },
        { type: 'finish', finishReason: { unified: 'other', raw: undefined } },
        { type: 'usage', usage },
      ],
      losses,
    ).map((chunk) => JSON.parse(chunk.slice('data: '.length)) as Record<string, unknown>);
    expect(chunks).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: { id: 'c1', name: 'f', args: { arguments: 'not json' } },
                  thoughtSignature: 'sig-a',
                },
              ],
            },
            index: 0,
          },
        ],
        modelVersion: 'my-model',
        responseId: 'r1',
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '', thoughtSignature: 'sig-b' }] },
            finishReason: 'OTHER',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 321, totalTokenCount: 321 },
        modelVersion: 'my-model',
        responseId: 'r1',
      },
      {
        usageMetadata: expect.objectContaining({ promptTokenCount: 2100 }),
        modelVersion: 'my-model',
        responseId: 'r1',
      },
    ]);
    expect(losses.losses).toEqual([
      {
        path: 'toolCalls[1].arguments',
        kind: 'coerced',
        reason: 'not a JSON object; sent as {"arguments": <text>}',
      },
    ]);
  });
});

describe('encodeStream on repeated pieces of text', () => {
  const pieces = ['Hel', 'lo "w\\or"ld"', '\n\t\u0001', '\u2028 ☃ 😀', '\ud800', 'end'];
  const chunk = (responseId: string, part: object) =>
    `data: ${JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }],
      modelVersion: 'm',
      responseId,
    })}\r\n\r\n`;

  it('writes each chunk as the one built and serialised whole, a signature on the next text alone', () => {
    const encoder = geminiCodec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 1,
      model: 'm',
    });
    const push = (event: StreamEvent) => encoder.push(event);
    push({ type: 'response-start', id: 'r1', model: 'm', created: 0 });
    push({ type: 'reasoning-start', index: 0 });
    for (const text of pieces)
      expect(push({ type: 'reasoning-delta', index: 0, text })).toBe(chunk('r1', { text, thought: true }));
    push({ type: 'reasoning-end', index: 0 });
    push({ type: 'text-start', index: 1 });
    for (const text of pieces)
      expect(push({ type: 'text-delta', index: 1, text })).toBe(chunk('r1', { text }));
    // A Gemini signature after no thought text rides on the next text part, and on that one only.
    push({ type: 'reasoning-start', index: 2 });
    expect(push({ type: 'reasoning-end', index: 2, signature: { issuer: 'gemini', value: 'sig' } })).toBe('');
    expect(push({ type: 'text-delta', index: 1, text: 'signed' })).toBe(
      chunk('r1', { text: 'signed', thoughtSignature: 'sig' }),
    );
    expect(push({ type: 'text-delta', index: 1, text: 'plain' })).toBe(chunk('r1', { text: 'plain' }));
    // Another response id: the chunks name it.
    push({ type: 'response-start', id: 'r2', model: 'm', created: 0 });
    expect(push({ type: 'text-delta', index: 1, text: 'again' })).toBe(chunk('r2', { text: 'again' }));
    expect(push({ type: 'reasoning-delta', index: 0, text: 'more' })).toBe(
      chunk('r2', { text: 'more', thought: true }),
    );
  });
});
