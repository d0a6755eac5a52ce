import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { geminiCodec } from '../../../src/protocols/gemini/codec.js';
import { geminiPassthrough } from '../../../src/protocols/gemini/passthrough.js';
import { fixtureText, sseEvents } from './helpers.js';
import { parsedWhile } from '../../helpers/parsed-while.js';

/** JSON as Gemini writes it: a space after every colon, none after a comma. */
function geminiJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(geminiJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{${members.map(([key, member]) => `${JSON.stringify(key)}: ${geminiJson(member)}`).join(',')}}`;
}

/** One chunk of a stream with the usage so far: `output` tokens of candidates (or of thoughts). */
function chunk(
  text: string,
  output: number,
  options: { thought?: boolean; finish?: string; part?: object; extra?: object } = {},
): string {
  const part = options.part ?? { text, ...(options.thought && { thought: true }) };
  const counts = options.thought ? { thoughtsTokenCount: output } : { candidatesTokenCount: output };
  return geminiJson({
    candidates: [{ content: { parts: [part], role: 'model' }, finishReason: options.finish, index: 0 }],
    usageMetadata: { promptTokenCount: 7, ...counts, totalTokenCount: 7 + output },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-1',
    ...options.extra,
  });
}

/** The same chunk made unlike any other by a member no reader reads: it can only be parsed whole. */
const unmatched = (data: string, index: number) => data.replace('"resp-1"', `"resp-1","n": ${index}`);

const event = (data: string) => ({ event: undefined, id: undefined, data });

describe('Gemini passthrough tap on repeated text chunks', () => {
  const tapOf = (chunks: string[]) => {
    const tap = geminiPassthrough.createStreamTap({ hideUsageEvents: false });
    const verdicts = chunks.map((data) => tap.onEvent(event(data)));
    return { tap, verdicts };
  };

  it('reads a chunk that repeats the last but for its text and growing counts by its text alone', () => {
    const tap = geminiPassthrough.createStreamTap({ hideUsageEvents: false });
    tap.onEvent(event(chunk('Hello', 1)));
    const parsed = parsedWhile(() => {
      for (const [index, text] of [' "quoted"', '', ' wörld 🍁'].entries())
        expect(tap.onEvent(event(chunk(text, index + 2)))).toEqual({ kind: 'forward' });
    });
    expect(parsed).toEqual(['" \\"quoted\\""', '""', '" wörld 🍁"']);
    expect(tap.producedText()).toBe('Hello "quoted" wörld 🍁');
  });

  it('takes its usage from the last chunk, whether it was read by its text or parsed whole', () => {
    const texts = ['a', 'b', 'c', 'd'];
    const stream = texts.map((text, index) => chunk(text, index + 1));
    // Cut off after repeated chunks: the usage is the last one's, not the learnt one's.
    const cut = tapOf(stream).tap;
    const whole = tapOf(stream.map(unmatched)).tap;
    expect(cut.usage()).toMatchObject({ inputTokens: 7, outputTokens: 4 });
    expect(cut.usage()).toEqual(whole.usage());
    expect(cut.missingEnd()).toBeDefined();
    // A chunk parsed whole without usage of its own keeps the usage of the repeated one before it.
    const withoutUsage = geminiJson({
      candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    });
    const finished = tapOf([...stream, withoutUsage]).tap;
    expect(finished.usage()).toMatchObject({ outputTokens: 4 });
    expect(finished.missingEnd()).toBeUndefined();
    // A later chunk's own usage wins over the repeated one's.
    const last = tapOf([...stream, chunk('', 9, { finish: 'STOP' })]).tap;
    expect(last.usage()).toMatchObject({ outputTokens: 9 });
    expect(last.producedText()).toBe('abcd');
  });

  it('reads thoughts and answers alike, and parses whole what differs in anything else', () => {
    const fixture = sseEvents(new TextEncoder().encode(fixtureText('stream-thoughts-text.txt')));
    const { tap, verdicts } = tapOf(fixture.map(({ data }) => data));
    expect(verdicts.every((verdict) => verdict.kind === 'forward')).toBe(true);
    expect(tap.producedText()).toBe(
      '**Choosing a city**\n\nAutumn colours peak in November — 紅葉.Kyoto in autumn is best for maple leaves 🍁.',
    );
    expect(tap.usage()).toMatchObject({ inputTokens: 1200, outputTokens: 91, reasoningTokens: 77 });
    // A fixed count that changes, a function call, a finish: each is parsed whole.
    const learnt = chunk('a', 1);
    const others = [
      chunk('b', 2).replace('"promptTokenCount": 7', '"promptTokenCount": 8'),
      chunk('', 3, { part: { functionCall: { name: 'f', args: { q: 1 } } } }),
      chunk('c', 4, { finish: 'STOP' }),
    ];
    const tapped = geminiPassthrough.createStreamTap({ hideUsageEvents: false });
    tapped.onEvent(event(learnt));
    for (const other of others) {
      const parsed = parsedWhile(() => tapped.onEvent(event(other)));
      expect(parsed[0]).toBe(other);
    }
    expect(tapped.producedText()).toBe('ab{"q":1}c');
    expect(tapped.usage()).toMatchObject({ inputTokens: 7, outputTokens: 4 });
    expect(tapped.missingEnd()).toBeUndefined();
  });

  it('breaks the stream on a repeated chunk whose count is not a JSON number', () => {
    for (const count of ['01', '"2"', '1.', '-', 'null']) {
      const bad = chunk('b', 2).replace('"totalTokenCount": 9', `"totalTokenCount": ${count}`);
      const { verdicts } = tapOf([chunk('a', 1), bad]);
      // A string or null count is JSON still, parsed whole; the others are not JSON at all.
      const expected = count === '"2"' || count === 'null' ? 'forward' : 'invalid';
      expect([count, verdicts[1]!.kind]).toEqual([count, expected]);
    }
  });
});

describe('Gemini stream decoder on repeated text chunks', () => {
  /** What each chunk decodes to, what the end adds, and the losses. */
  const decode = (chunks: string[]) => {
    const losses = new LossLog();
    const decoder = geminiCodec.createStreamDecoder(losses);
    const perChunk = chunks.map((data) => decoder.push(event(data)));
    return { perChunk, end: decoder.end(), losses: losses.losses };
  };
  /** The same stream decoded with every chunk parsed whole. */
  const decodeWhole = (chunks: string[]) => decode(chunks.map(unmatched));
  const stable = (decoded: ReturnType<typeof decode>) => ({
    ...decoded,
    perChunk: decoded.perChunk.map((events) =>
      events.map((item) => (item.type === 'response-start' ? { ...item, created: 0 } : item)),
    ),
  });

  it('decodes a chunk that repeats the last by its text alone, as it decodes the chunk parsed whole', () => {
    const stream = ['Hello', ' "quoted"', '', ' wörld 🍁'].map((text, index) => chunk(text, index + 1));
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    decoder.push(event(stream[0]!));
    const parsed = parsedWhile(() => stream.slice(1).forEach((data) => decoder.push(event(data))));
    expect(parsed).toEqual(['" \\"quoted\\""', '""', '" wörld 🍁"']);
    expect(stable(decode(stream))).toEqual(stable(decodeWhole(stream)));
  });

  it('keeps thoughts, answers, signatures and calls apart as when every chunk is parsed whole', () => {
    const call = geminiJson({ functionCall: { name: 'g', args: { a: 1 } } });
    const stream = [
      chunk('Let me ', 1, { thought: true }),
      chunk('think.', 2, { thought: true }),
      chunk('', 3, { thought: true, part: { text: '', thought: true, thoughtSignature: 'c2ln' } }),
      chunk('Signed', 3, { part: { text: 'Signed', thoughtSignature: 'c2ln' } }),
      chunk('again', 3, { part: { text: 'again', thoughtSignature: 'c2ln' } }),
      chunk('The ', 4),
      chunk('answer', 5),
      chunk('', 6, { part: { functionCall: { name: 'f', args: {} } } }),
      chunk('More', 7),
      chunk('thinking', 8, { thought: true }),
      chunk('text', 9),
      // A second candidate (dropped), then a second part (a call): neither is the text alone.
      chunk('one', 9, { extra: { candidates: [{ content: { parts: [{ text: 'one' }] } }, { index: 1 }] } }),
      chunk('two', 9, { extra: { candidates: [{ content: { parts: [{ text: 'two' }] } }, { index: 1 }] } }),
      chunk('x', 9).replace('{"text": "x"}', '{"text": "x"},' + call),
      chunk('y', 9).replace('{"text": "y"}', '{"text": "y"},' + call),
      chunk(' again', 10),
      chunk('', 11, { finish: 'STOP' }),
      chunk('late', 12),
    ];
    const decoded = decode(stream);
    expect(stable(decoded)).toEqual(stable(decodeWhole(stream)));
    expect(decoded.losses.map(({ path, reason }) => [path, reason])).toEqual([
      ['chunk[11].candidates[1]', 'only the first candidate is kept'],
      ['chunk[12].candidates[1]', 'only the first candidate is kept'],
      ['chunk[17].candidates[0]', 'content after the finish'],
    ]);
    expect(decoded.perChunk[1]).toEqual([{ type: 'reasoning-delta', index: 0, text: 'think.' }]);
  });

  it('finishes with the usage of the last chunk, read by its text or not', () => {
    const stream = ['a', 'b', 'c'].map((text, index) => chunk(text, index + 1));
    const cut = decode(stream);
    expect(cut.end.at(-1)).toMatchObject({ type: 'finish', usage: { outputTokens: 3 } });
    expect(stable(cut)).toEqual(stable(decodeWhole(stream)));
    const withoutUsage = geminiJson({
      candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
    });
    const finished = decode([...stream, withoutUsage]);
    expect(finished.perChunk.at(-1)!.at(-1)).toMatchObject({ type: 'finish', usage: { outputTokens: 3 } });
    expect(stable(finished)).toEqual(stable(decodeWhole([...stream, withoutUsage])));
  });

  it('breaks the stream on a repeated chunk that is not JSON', () => {
    const decoder = geminiCodec.createStreamDecoder(new LossLog());
    decoder.push(event(chunk('a', 1)));
    expect(
      decoder.push(event(chunk('b', 2).replace('"totalTokenCount": 9', '"totalTokenCount": 01'))),
    ).toEqual([]);
    expect(decoder.broken()).toMatch(/^an event whose data is not a JSON object/);
  });
});
