import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { parsedWhile } from '../../helpers/parsed-while.js';
import { codec, stable } from './helpers.js';

/** A ConverseStream event as the framing hands it over: named by its frame, padded with `p`. */
const event = (name: string, payload: object, p = 'abc') => ({
  event: name,
  id: undefined,
  data: JSON.stringify({ ...payload, p }),
});
const text = (index: number, piece: string, p?: string) =>
  event('contentBlockDelta', { contentBlockIndex: index, delta: { text: piece } }, p);
const reasoning = (index: number, reasoningContent: object, p?: string) =>
  event('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent } }, p);
const toolInput = (index: number, input: string, p?: string) =>
  event('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } }, p);
type WireEvent = ReturnType<typeof event>;

/** What each event decodes to, what the end adds, and the losses. */
function decode(events: WireEvent[]) {
  const losses = new LossLog();
  const decoder = codec.createStreamDecoder(losses);
  const perEvent = events.map((item) => stable(decoder.push(item)));
  return { perEvent, end: stable(decoder.end()), losses: losses.losses, broken: decoder.broken() };
}
/** The same events, each made unlike any other by a member no reader reads: each is parsed whole. */
const decodeWhole = (events: WireEvent[]) =>
  decode(events.map((item, index) => ({ ...item, data: item.data.replace('"p":', `"n${index}":0,"p":`) })));

describe('converse stream decoder on repeated piece deltas', () => {
  test('a delta that repeats the last but for its piece and padding is read by its piece alone', () => {
    const decoder = codec.createStreamDecoder(new LossLog());
    decoder.push(event('messageStart', { role: 'assistant' }));
    decoder.push(text(0, 'first'));
    let decoded: unknown[] = [];
    const parsed = parsedWhile(() => {
      decoded = [text(0, 'sec"ond', ''), text(0, '', 'a long padding'), text(0, 'third')].flatMap((item) =>
        decoder.push(item),
      );
    });
    expect(parsed).toEqual(['"sec\\"ond"', '""', '"third"']);
    expect(decoded).toEqual([
      { type: 'text-delta', index: 0, text: 'sec"ond' },
      { type: 'text-delta', index: 0, text: 'third' },
    ]);
    expect(decoder.push({ ...text(0, 'x'), data: text(0, 'x').data.replace('"abc"', '"a\\q"') })).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });

  test('reasoning, its signature, text, tool input and misplaced deltas decode as when parsed whole', () => {
    const events = [
      event('messageStart', { role: 'assistant' }),
      reasoning(0, { text: 'Let me ' }, ''),
      reasoning(0, { text: 'think.' }, 'abcdefgh'),
      // A delta with more than its piece: redacted content (dropped each time), two kinds at once.
      reasoning(0, { text: 'and', redactedContent: 'cmVk' }),
      reasoning(0, { text: 'again', redactedContent: 'cmVk' }),
      event('contentBlockDelta', {
        contentBlockIndex: 0,
        delta: { toolUse: { input: 'i' }, reasoningContent: { text: 'r' } },
      }),
      event('contentBlockDelta', {
        contentBlockIndex: 0,
        delta: { toolUse: { input: 'j' }, reasoningContent: { text: 'r' } },
      }),
      reasoning(0, { signature: 'c2ln' }),
      reasoning(0, { signature: 'c2lh' }),
      event('contentBlockStop', { contentBlockIndex: 0 }),
      text(1, 'The '),
      text(1, 'answer'),
      reasoning(1, { text: 'misplaced' }),
      reasoning(1, { text: 'again' }),
      text(1, 'more', 'xy'),
      // The same data under another frame name is no delta.
      { ...text(1, 'renamed'), event: 'contentBlockStop' },
      text(2, 'another block'),
      text(2, 'another piece'),
      event('contentBlockStart', {
        contentBlockIndex: 3,
        start: { toolUse: { toolUseId: 't1', name: 'f' } },
      }),
      toolInput(3, '{"city":'),
      toolInput(3, '"Kyoto"}', 'padding'),
      text(3, 'text in a call'),
      text(3, 'and more'),
      event('contentBlockStop', { contentBlockIndex: 3 }),
      event('messageStop', { stopReason: 'tool_use' }),
      text(2, 'after the stop'),
      event('metadata', { usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 } }),
    ];
    const decoded = decode(events);
    expect(decoded).toEqual(decodeWhole(events));
    expect(decoded.losses.map(({ reason }) => reason)).toEqual([
      'redacted content after reasoning has no canonical stream event',
      'redacted content after reasoning has no canonical stream event',
      'a reasoningContent delta has no place in a text block',
      'a reasoningContent delta has no place in a text block',
      'a text delta has no place in a tool-call block',
      'a text delta has no place in a tool-call block',
    ]);
    expect(decoded.perEvent[20]).toEqual([{ type: 'tool-call-delta', index: 3, argumentsDelta: '"Kyoto"}' }]);
    expect(decoded.perEvent[8]).toEqual([]);
    expect(decoded.perEvent[6]).toEqual([{ type: 'reasoning-delta', index: 0, text: 'r' }]);
  });
});
