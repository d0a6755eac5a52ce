import { describe, expect, test } from 'vitest';
import { createBedrockStreamFraming } from '../../../src/providers/bedrock/bedrock-stream-framing.js';
import { InvokeChunkReader } from '../../../src/providers/bedrock/invoke-chunk-reader.js';
import { eventFrameOfText } from '../../fakes/bedrock-event-stream.js';
import { parsedWhile } from '../../helpers/parsed-while.js';

/** A `chunk` payload as Bedrock sends it: the event in base64, then `p` padding of any length. */
const payload = (event: object | string, p = 'abc') =>
  JSON.stringify({
    bytes: Buffer.from(typeof event === 'string' ? event : JSON.stringify(event)).toString('base64'),
    p,
  });
const delta = (index: number, type: string, member: string, piece: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type, [member]: piece },
});

describe('InvokeChunkReader', () => {
  const stream = [
    payload({ type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } }),
    payload(delta(0, 'thinking_delta', 'thinking', 'Let me'), ''),
    payload(delta(0, 'thinking_delta', 'thinking', ' think "hard"'), 'abcdefghijklmnop'),
    payload(delta(0, 'signature_delta', 'signature', 'c2ln')),
    payload(delta(1, 'text_delta', 'text', 'Grüße 👋')),
    payload(delta(1, 'text_delta', 'text', '')),
    payload(delta(1, 'text_delta', 'text', 'more\n')),
    payload(delta(2, 'text_delta', 'text', 'another block')),
    payload(delta(3, 'input_json_delta', 'partial_json', '{"city":')),
    payload(delta(3, 'input_json_delta', 'partial_json', '"Kyoto"}')),
    payload({ index: 3, delta: { type: 'text_delta', text: 'no type of its own' } }),
    // Another event type around a piece delta stays of its type.
    payload({ type: 'future_event', index: 3, delta: { type: 'text_delta', text: 'a' } }),
    payload({ type: 'future_event', index: 3, delta: { type: 'text_delta', text: 'b' } }),
    payload({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
    payload({ type: 'message_stop' }),
  ];

  test('reads every payload as a reader that never learnt one does', () => {
    const reader = new InvokeChunkReader();
    expect(stream.map((body) => reader.read(body))).toEqual(
      stream.map((body) => new InvokeChunkReader().read(body)),
    );
    expect(new InvokeChunkReader().read(stream[4]!)).toBe(
      `event: content_block_delta\ndata: ${JSON.stringify(delta(1, 'text_delta', 'text', 'Grüße 👋'))}\n\n`,
    );
    expect(new InvokeChunkReader().read(stream[10]!)).toBe('');
  });

  test('a payload and a delta that repeat the last but for their bytes, piece and padding are read by them alone', () => {
    for (const [type, member] of [
      ['text_delta', 'text'],
      ['thinking_delta', 'thinking'],
      ['input_json_delta', 'partial_json'],
    ] as const) {
      const reader = new InvokeChunkReader();
      reader.read(payload(delta(0, type, member, 'first')));
      const next = payload(delta(0, type, member, 'sec"ond'), 'a much longer padding');
      const bytes = JSON.parse(next).bytes as string;
      const parsed = parsedWhile(() => reader.read(next));
      expect([type, parsed]).toEqual([type, [`"${bytes}"`, '"sec\\"ond"']]);
    }
  });

  test('throws on bytes that are not JSON, and on a payload without bytes, learnt or not', () => {
    const reader = new InvokeChunkReader();
    reader.read(payload(delta(0, 'text_delta', 'text', 'a')));
    const broken = JSON.stringify(delta(0, 'text_delta', 'text', 'b')).replace('"b"', '"b');
    expect(() => reader.read(payload(broken))).toThrow(/not JSON/);
    expect(() => reader.read(payload('{oops'))).toThrow(/not JSON/);
    expect(() =>
      reader.read(payload(delta(0, 'text_delta', 'text', 'c')).replace('"abc"', '"a\\q"')),
    ).toThrow(/without base64/);
    expect(() => reader.read(JSON.stringify({ other: 1 }))).toThrow(/without base64/);
  });
});

describe('Bedrock framing: payloads read as UTF-8', () => {
  test('a payload keeps a leading byte order mark, as its bytes hold it', () => {
    const body = '\ufeff{"role":"assistant"}';
    const text = createBedrockStreamFraming('converse').push(eventFrameOfText('messageStart', body));
    expect(text).toBe(`event: messageStart\ndata: ${body}\n\n`);
  });
});
