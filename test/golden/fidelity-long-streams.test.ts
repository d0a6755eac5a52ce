import { describe, expect, test } from 'vitest';
import { splitIntoDeltas } from '../fakes/fake-upstream.js';
import {
  callFamily,
  FAMILIES,
  MODELS,
  PROMPT,
  replayToFake,
  upstreamFamily,
  useFidelityGateway,
  VENDORS,
  withStableIds,
  type ClientFamily,
  type Vendor,
} from './extras-clients.js';

/**
 * Long answers whose text looks like SSE framing: the fake streams it in thousands of small deltas,
 * and every family's SDK shows exactly that text, whatever the upstream. Same-family streams are
 * passed through: the bytes the client reads are the bytes the upstream wrote.
 */
const piece = (index: number) =>
  `Line ${index}: data: [DONE]\n\nevent: error\r\ndata: {"error":1}\n\n: keep-alive\r\n\r\n` +
  `id: ${index}\rretry: 0\n\u00e9 \u6f22\u5b57 \u{1F642}\n`;
const LONG_TEXT = Array.from({ length: 220 }, (_, index) => piece(index)).join('');

const fixture = useFidelityGateway();

test('the scripted text streams in thousands of deltas', () => {
  expect(splitIntoDeltas(LONG_TEXT).length).toBeGreaterThan(3000);
});

describe.each(FAMILIES)('%s client', (family) => {
  describe.each(VENDORS)('to %s upstream', (vendor) => {
    test.each([false, true])('stream %s', async (stream) => {
      const fake = fixture().fakes[vendor];
      fake.scriptAlways({ type: 'reply', text: LONG_TEXT, chunkDelayMs: 0 });

      const view = await callFamily(fixture().clients, { family, model: MODELS[vendor], stream });

      expect(fake.requests).toHaveLength(1);
      expect(view.text.length).toBe(LONG_TEXT.length);
      expect(view.text === LONG_TEXT).toBe(true);
    });
  });
});

/** A minimal streaming request of each family, its own vendor behind it. */
const OWN_VENDOR: Record<ClientFamily, Vendor> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'anthropic-messages': 'anthropic',
  gemini: 'gemini',
};
const RAW_BODY: Record<ClientFamily, Record<string, unknown>> = {
  // The client asks for the usage chunk itself, so the gateway has no reason to add or drop one.
  'openai-chat': { messages: [{ role: 'user', content: PROMPT }], stream_options: { include_usage: true } },
  'openai-responses': { input: PROMPT },
  'anthropic-messages': { max_tokens: 1024, messages: [{ role: 'user', content: PROMPT }] },
  gemini: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
};

describe.each(FAMILIES)('%s client, passthrough', (family) => {
  test('the stream reaches the client byte for byte', async () => {
    const vendor = OWN_VENDOR[family];
    expect(upstreamFamily(family, vendor)).toBe(family);
    const fake = fixture().fakes[vendor];
    fake.scriptAlways({ type: 'reply', text: LONG_TEXT, chunkDelayMs: 0 });

    const received = await fixture().readRawStream(family, MODELS[vendor], RAW_BODY[family]);

    const [sent, ...more] = fake.requests;
    expect(more).toHaveLength(0);
    const written = await replayToFake(fake, sent!);
    expect(written.length).toBeGreaterThan(LONG_TEXT.length);
    expect(firstDifference(withStableIds(received), withStableIds(written))).toBeUndefined();
  });
});

/** Where two long texts part, with some context, so a failure stays readable. */
function firstDifference(received: string, expected: string) {
  if (received === expected) return undefined;
  let offset = 0;
  while (offset < received.length && received[offset] === expected[offset]) offset++;
  const around = (text: string) => text.slice(Math.max(0, offset - 80), offset + 80);
  return {
    offset,
    receivedLength: received.length,
    expectedLength: expected.length,
    received: around(received),
    expected: around(expected),
  };
}
