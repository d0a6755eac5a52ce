import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { expectStreamGrammar, fixtureText, sseEvents } from './helpers.js';

function decode(bytes: Uint8Array, cuts: number[] = [], losses = new LossLog()): StreamEvent[] {
  const decoder = geminiCodec.createStreamDecoder(losses);
  return [...sseEvents(bytes, cuts).flatMap((event) => decoder.push(event)), ...decoder.end()];
}

const bytesOf = (name: string) => new TextEncoder().encode(fixtureText(name));
/** `created` is the time of reading when the stream does not say it. */
const stable = (events: StreamEvent[]) =>
  events.map((event) => (event.type === 'response-start' ? { ...event, created: 0 } : event));

describe('gemini stream decoder', () => {
  it('stream-thoughts-text.txt: thoughts across chunks, the signature before the answer, usage on finish', () => {
    const events = decode(bytesOf('stream-thoughts-text.txt'));
    expectStreamGrammar(events);
    expect(stable(events)).toMatchInlineSnapshot(`
      [
        {
          "created": 0,
          "id": "mPQcaZ2gB9qxqtsP7K_h8Qs",
          "model": "gemini-2.5-flash",
          "type": "response-start",
        },
        {
          "index": 0,
          "type": "reasoning-start",
        },
        {
          "index": 0,
          "text": "**Choosing a city**

      Autumn colours ",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "text": "peak in November — 紅葉.",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "type": "reasoning-end",
        },
        {
          "index": 1,
          "type": "reasoning-start",
        },
        {
          "index": 1,
          "signature": {
            "issuer": "gemini",
            "value": "CqUBAVKhc7k0dGhvdWdodC1zaWduYXR1cmU=",
          },
          "type": "reasoning-end",
        },
        {
          "index": 2,
          "type": "text-start",
        },
        {
          "index": 2,
          "text": "Kyoto in autumn ",
          "type": "text-delta",
        },
        {
          "index": 2,
          "text": "is best for maple leaves 🍁.",
          "type": "text-delta",
        },
        {
          "index": 2,
          "type": "text-end",
        },
        {
          "finishReason": {
            "raw": "STOP",
            "unified": "stop",
          },
          "type": "finish",
          "usage": {
            "cacheReadTokens": 1024,
            "cacheWriteTokens": 0,
            "estimated": false,
            "inputTokens": 1200,
            "outputTokens": 91,
            "raw": {
              "cacheTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 1024,
                },
              ],
              "cachedContentTokenCount": 1024,
              "candidatesTokenCount": 14,
              "promptTokenCount": 1200,
              "promptTokensDetails": [
                {
                  "modality": "TEXT",
                  "tokenCount": 1200,
                },
              ],
              "thoughtsTokenCount": 77,
              "totalTokenCount": 1291,
            },
            "reasoningTokens": 77,
            "webSearchCalls": 0,
          },
        },
      ]
    `);
  });

  it('stream-parallel-calls.txt: each function call is a whole tool-call block', () => {
    const events = decode(bytesOf('stream-parallel-calls.txt'));
    expectStreamGrammar(events);
    expect(stable(events).slice(0, -1)).toMatchInlineSnapshot(`
      [
        {
          "created": 0,
          "id": "Z2VtaW5pLXRvb2xz",
          "model": "gemini-2.5-pro",
          "type": "response-start",
        },
        {
          "index": 0,
          "type": "reasoning-start",
        },
        {
          "index": 0,
          "text": "Checking both cities.",
          "type": "reasoning-delta",
        },
        {
          "index": 0,
          "type": "reasoning-end",
        },
        {
          "id": "call_Z2VtaW5pLXRvb2xz_0",
          "index": 1,
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city":"Paris"}",
          "index": 1,
          "type": "tool-call-delta",
        },
        {
          "index": 1,
          "signature": {
            "issuer": "gemini",
            "value": "CpwBAVKhc7lMhz4uF0C2bBSaJ3qGh8sK1bWnqg==",
          },
          "type": "tool-call-end",
        },
        {
          "id": "call_Z2VtaW5pLXRvb2xz_1",
          "index": 2,
          "name": "get_weather",
          "type": "tool-call-start",
        },
        {
          "argumentsDelta": "{"city":"東京"}",
          "index": 2,
          "type": "tool-call-delta",
        },
        {
          "index": 2,
          "type": "tool-call-end",
        },
      ]
    `);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 90, outputTokens: 60, reasoningTokens: 30 },
    });
  });

  it('stream-cut-off.txt: a stream without finish is closed and finished as other, output unknown', () => {
    const events = decode(bytesOf('stream-cut-off.txt'));
    expectStreamGrammar(events);
    expect(events.slice(1).map((event) => event.type)).toEqual([
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(events.at(-1)).toMatchObject({
      finishReason: { unified: 'other', raw: undefined },
      usage: { inputTokens: 5, outputTokens: undefined },
    });
  });

  it('stream-error.txt: an error chunk ends the stream with an error event', () => {
    const events = decode(bytesOf('stream-error.txt'));
    expectStreamGrammar(events);
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'The model is overloaded. Please try again later.',
      code: 'UNAVAILABLE',
      status: 503,
    });
  });

  it.each([
    'stream-thoughts-text.txt',
    'stream-parallel-calls.txt',
    'stream-cut-off.txt',
    'stream-error.txt',
  ])(
    '%s: every split point, mid UTF-8 character and mid `data:` line included, gives the same events',
    (name) => {
      const bytes = bytesOf(name);
      const whole = stable(decode(bytes));
      let midCharacter = 0;
      for (let cut = 1; cut < bytes.length; cut++) {
        if (((bytes[cut] ?? 0) & 0xc0) === 0x80) midCharacter++;
        const events = decode(bytes, [cut]);
        expectStreamGrammar(events);
        expect(stable(events)).toEqual(whole);
      }
      if (name !== 'stream-cut-off.txt' && name !== 'stream-error.txt')
        expect(midCharacter).toBeGreaterThan(0);
      const byteByByte = decode(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, index) => index + 1),
      );
      expect(stable(byteByByte)).toEqual(whole);
    },
  );

  it('an empty stream still starts and finishes', () => {
    const events = decode(new Uint8Array());
    expectStreamGrammar(events);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'finish']);
  });

  it('a blocked prompt finishes as a content filter; later usage trails the finish', () => {
    const text = [
      {
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 },
      },
      { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 0, totalTokenCount: 4 } },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`)
      .join('');
    const events = decode(new TextEncoder().encode(text));
    expectStreamGrammar(events);
    expect(events.slice(1)).toMatchObject([
      {
        type: 'finish',
        finishReason: { unified: 'content-filter', raw: 'SAFETY' },
        usage: { outputTokens: undefined },
      },
      { type: 'usage', usage: { inputTokens: 4, outputTokens: 0 } },
    ]);
  });

  it('keeps a generated image as a file event and records the candidates it drops', () => {
    const losses = new LossLog();
    const text = `data: ${JSON.stringify({
      candidates: [
        {
          content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo' } }] },
          finishReason: 'STOP',
        },
        { content: { parts: [{ text: 'second candidate' }] } },
      ],
    })}\r\n\r\n`;
    const events = decode(new TextEncoder().encode(text), [], losses);
    expectStreamGrammar(events);
    expect(events.filter((event) => event.type === 'file')).toEqual([
      {
        type: 'file',
        index: 0,
        file: { type: 'file', mediaType: 'image/png', source: { kind: 'base64', data: 'iVBORw0KGgo' } },
      },
    ]);
    expect(losses.losses).toEqual([
      { path: 'chunk[0].candidates[1]', kind: 'dropped', reason: 'only the first candidate is kept' },
    ]);
  });

  it('an event that is not a JSON object breaks the stream: nothing after it, no finish', () => {
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    const chunk = { candidates: [{ content: { parts: [{ text: 'Hi' }], role: 'model' } }] };
    const events = [
      ...decoder.push({ event: undefined, id: undefined, data: JSON.stringify(chunk) }),
      ...decoder.push({ event: undefined, id: undefined, data: '{"candidates": [' }),
      ...decoder.push({ event: undefined, id: undefined, data: JSON.stringify(chunk) }),
      ...decoder.end(),
    ];
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-start', 'text-delta']);
    expect(decoder.broken()).toBe('an event whose data is not a JSON object: "{\\"candidates\\": ["');
  });
});
