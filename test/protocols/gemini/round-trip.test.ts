import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { fixtureJson, fixtureText, sseEvents } from './helpers.js';

const context = { losses: new LossLog(), model: 'gemini-2.5-pro', stream: false };
const encodeOptions = { losses: new LossLog(), defaultMaxTokens: 8192 };

/** Many shapes in one request: every kind of part, role mix and config the decoder reads. */
const edgeRequest = {
  contents: [
    { role: 'user', parts: [{ text: 'one' }] },
    { role: 'user', parts: [{ text: 'two' }, { text: 'three' }] },
    {
      role: 'model',
      parts: [
        { text: 'thinking ', thought: true },
        { text: '', thought: true },
        { text: 'done', thought: true, thoughtSignature: 'sig-thought' },
        { text: 'unsigned thought', thought: true },
        { text: '', thoughtSignature: 'sig-alone' },
        { functionCall: { name: 'f', args: { nested: { list: [1, 'two', null] } } } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo' }, thoughtSignature: 'sig-image' },
      ],
    },
    {
      role: 'user',
      parts: [
        { text: 'before' },
        { functionResponse: { name: 'f', response: { error: { code: 7 } } } },
        { text: 'after' },
        { text: 'after again' },
      ],
    },
    { role: 'user', parts: [{ text: 'separate turn' }] },
    { role: 'model', parts: [{ functionCall: { name: 'g', args: {} } }] },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'g',
            response: { output: '{"a":1}' },
            parts: [
              { fileData: { mimeType: 'image/png', fileUri: 'https://generativelanguage.googleapis.com/x' } },
            ],
          },
        },
      ],
    },
  ],
  tools: [
    { functionDeclarations: [{ name: 'f' }], googleSearch: {} },
    { urlContext: {} },
    {
      functionDeclarations: [
        { name: 'g', parameters: { type: 'OBJECT', properties: {} }, response: { type: 'STRING' } },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'VALIDATED' }, retrievalConfig: { languageCode: 'en' } },
  generationConfig: {
    responseMimeType: 'text/x.enum',
    responseSchema: { type: 'STRING', enum: ['a', 'b'] },
    thinkingConfig: { thinkingBudget: -1 },
    mediaResolution: 'MEDIA_RESOLUTION_LOW',
  },
  systemInstruction: { parts: [{ text: 'sys' }] },
  serviceTier: 'flex',
};

describe('gemini round trips', () => {
  const requests: [string, Record<string, unknown>][] = [
    ['request-full.json', fixtureJson('request-full.json')],
    ['request-tool-history.json', fixtureJson('request-tool-history.json')],
    ['request-with-ids.json', fixtureJson('request-with-ids.json')],
    ['edge shapes', edgeRequest],
  ];

  it.each(requests)('request %s: decode(encode(decode(x))) equals decode(x)', (_name, body) => {
    const decoded = geminiCodec.decodeRequest(body, context);
    const again = geminiCodec.decodeRequest(geminiCodec.encodeRequest(decoded, encodeOptions), context);
    expect(again).toEqual(decoded);
  });

  it('request edge shapes: the signatures stay on their parts', () => {
    const decoded = geminiCodec.decodeRequest(edgeRequest, context);
    const encoded = geminiCodec.encodeRequest(decoded, encodeOptions);
    const model = (encoded.contents as { parts: unknown[] }[])[2];
    expect(model?.parts).toEqual([
      { text: 'thinking done', thought: true, thoughtSignature: 'sig-thought' },
      { text: 'unsigned thought', thought: true },
      { text: '', thoughtSignature: 'sig-alone' },
      { functionCall: { name: 'f', args: { nested: { list: [1, 'two', null] } } } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo' }, thoughtSignature: 'sig-image' },
    ]);
    expect(encoded.toolConfig).toEqual(edgeRequest.toolConfig);
    expect(encoded.serviceTier).toBe('flex');
  });

  it.each([
    'reply-thoughts-text.json',
    'reply-parallel-calls.json',
    'reply-blocked-prompt.json',
    'reply-max-tokens-thinking.json',
    'reply-grounded.json',
  ])('reply %s: decodeReply(encodeReply(decodeReply(x))) equals decodeReply(x)', (name) => {
    const decoded = geminiCodec.decodeReply(fixtureJson(name), new LossLog());
    const again = geminiCodec.decodeReply(geminiCodec.encodeReply(decoded, new LossLog()), new LossLog());
    expect(again).toEqual({ ...decoded, created: again.created });
  });

  it.each([
    'stream-thoughts-text.txt',
    'stream-parallel-calls.txt',
    'stream-cut-off.txt',
    'stream-error.txt',
  ])('stream %s: decoding the encoded events gives the same events', (name) => {
    const events = decodeStream(new TextEncoder().encode(fixtureText(name)));
    const start = events[0];
    const encoder = geminiCodec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 0,
      model: start?.type === 'response-start' ? start.model : '',
    });
    const text = events.map((event) => encoder.push(event)).join('') + encoder.end();
    const again = decodeStream(new TextEncoder().encode(text));
    // A stream that never finished is told to a Gemini client as `OTHER`, which then reads back as such.
    const expected = events.map((event) =>
      event.type === 'finish' && event.finishReason.raw === undefined
        ? { ...event, finishReason: { unified: 'other' as const, raw: 'OTHER' } }
        : event,
    );
    expect(withoutCreated(again)).toEqual(withoutCreated(expected));
  });
});

function decodeStream(bytes: Uint8Array): StreamEvent[] {
  const decoder = geminiCodec.createStreamDecoder(new LossLog());
  return [...sseEvents(bytes).flatMap((event) => decoder.push(event)), ...decoder.end()];
}

function withoutCreated(events: StreamEvent[]): unknown[] {
  return events.map((event) => {
    if (event.type === 'response-start') return { ...event, created: 0 };
    if ((event.type === 'finish' || event.type === 'usage') && event.usage)
      return { ...event, usage: counts(event.usage) };
    return event;
  });
}

/** Usage without the raw block: a re-encoded stream's usage block is rebuilt from the counts. */
function counts(usage: NonNullable<Extract<StreamEvent, { type: 'usage' }>['usage']>) {
  const { raw: _raw, ...rest } = usage;
  return rest;
}
