import { describe, expect, it } from 'vitest';
import { geminiPassthrough } from '../../../src/protocols/gemini/passthrough.js';
import { fixtureJson, fixtureText, sseEvents } from './helpers.js';
import { scannedDocument } from '../../helpers/json-document.js';

function tap(name: string) {
  const streamTap = geminiPassthrough.createStreamTap({ hideUsageEvents: false });
  const visible = sseEvents(new TextEncoder().encode(fixtureText(name))).map(
    (event) => streamTap.onEvent(event).kind,
  );
  return { streamTap, visible };
}

describe('geminiPassthrough', () => {
  it('cannot read streaming from the body, and reads the output cap from generationConfig', () => {
    expect(geminiPassthrough.upstreamEndpoint).toBe('gemini-generate-content');
    expect(geminiPassthrough.isStream({ contents: [], stream: true })).toBe(false);
    expect(geminiPassthrough.outputCap({ contents: [], generationConfig: { maxOutputTokens: 2048 } })).toBe(
      2048,
    );
    expect(geminiPassthrough.outputCap({ contents: [], generationConfig: {} })).toBeUndefined();
    expect(geminiPassthrough.outputCap({ contents: [] })).toBeUndefined();
  });

  it('leaves the body as it is: the model is in the URL', () => {
    const body = fixtureJson('request-full.json');
    const prepared = geminiPassthrough.prepareRequest(body, { upstreamModel: 'gemini-2.5-pro' });
    expect(prepared.body).toEqual(fixtureJson('request-full.json'));
    expect(prepared.body).not.toHaveProperty('model');
    expect(prepared.hideUsageEvents).toBe(false);
  });

  it('reads usage from a reply, thoughts in the output and web searches counted', () => {
    expect(
      geminiPassthrough.usageFromReply(scannedDocument(fixtureJson('reply-thoughts-text.json'))),
    ).toMatchObject({
      inputTokens: 1200,
      cacheReadTokens: 1024,
      outputTokens: 91,
      reasoningTokens: 77,
    });
    expect(
      geminiPassthrough.usageFromReply(scannedDocument(fixtureJson('reply-grounded.json'))),
    ).toMatchObject({
      webSearchCalls: 2,
    });
    expect(geminiPassthrough.usageFromReply(scannedDocument('oops'))).toBeUndefined();
  });

  it('keeps the last usage of a stream and collects text and thoughts, hiding nothing', () => {
    const { streamTap, visible } = tap('stream-thoughts-text.txt');
    expect(visible).toEqual(['forward', 'forward', 'forward', 'forward', 'forward']);
    expect(streamTap.missingEnd()).toBeUndefined();
    expect(streamTap.usage()).toMatchObject({ inputTokens: 1200, outputTokens: 91, reasoningTokens: 77 });
    expect(streamTap.producedText()).toBe(
      '**Choosing a city**\n\nAutumn colours peak in November — 紅葉.Kyoto in autumn is best for maple leaves 🍁.',
    );
  });

  it('collects function call arguments, and leaves output unknown for a stream cut before its usage', () => {
    expect(tap('stream-parallel-calls.txt').streamTap.producedText()).toBe(
      'Checking both cities.{"city":"Paris"}{"city":"東京"}',
    );
    const cut = tap('stream-cut-off.txt').streamTap;
    expect(cut.usage()).toMatchObject({ inputTokens: 5, outputTokens: undefined });
    expect(cut.producedText()).toBe('Once upon a time');
    expect(cut.missingEnd()).toBe('the stream ended without a candidate with a finishReason');
  });

  it('writes stream errors as Gemini does', () => {
    const tap = geminiPassthrough.createStreamTap({ hideUsageEvents: false });
    expect(tap.errorEvent({ message: 'idle', code: 'upstream_timeout', status: 504 })).toBe(
      'data: {"error":{"code":504,"message":"idle","status":"DEADLINE_EXCEEDED"}}\r\n\r\n',
    );
    expect(tap.errorEvent({ message: 'broken', code: 'upstream_stream_broken', status: 503 })).toBe(
      'data: {"error":{"code":503,"message":"broken","status":"UNAVAILABLE"}}\r\n\r\n',
    );
  });
});
