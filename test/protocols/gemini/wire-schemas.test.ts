import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';

// Strict at the inbound edge, lenient upstream: a member of the wrong type reads as absent.
describe('gemini upstream bodies, read leniently', () => {
  it('a reply whose members have the wrong types decodes without them', () => {
    const reply = geminiCodec.decodeReply(
      {
        candidates: [
          { content: { parts: 'not a list' }, finishReason: 7, index: 'first', safetyRatings: [] },
        ],
        promptFeedback: 'blocked?',
        usageMetadata: 'none',
        responseId: 'r1',
        modelVersion: 42,
        sdkNewField: { kept: true },
      },
      new LossLog(),
    );
    expect(reply).toMatchObject({
      id: 'r1',
      model: '',
      parts: [],
      finishReason: { unified: 'other', raw: undefined },
      usage: { inputTokens: undefined, outputTokens: undefined },
      extensions: { gemini: { candidate: { safetyRatings: [] }, response: { sdkNewField: { kept: true } } } },
    });
  });

  it('a stream chunk whose members have the wrong types adds nothing, and the stream goes on', () => {
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    const events = [
      { responseId: 'r1', modelVersion: 'm', candidates: 'many' },
      { candidates: [null, { finishReason: 'STOP' }], error: 'not an error object' },
      { candidates: [{ content: { parts: [{ text: 'Hi.' }] }, finishReason: 'STOP' }] },
    ].flatMap((chunk) => decoder.push({ event: undefined, id: undefined, data: JSON.stringify(chunk) }));
    expect(decoder.broken()).toBeUndefined();
    expect(events.map((event) => event.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'finish',
    ]);
  });
});
