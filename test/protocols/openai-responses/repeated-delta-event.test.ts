import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { StreamEvent } from '../../../src/ir/stream-event.js';
import { openAIResponsesCodec as codec } from '../../../src/protocols/openai-responses/codec.js';
import { RepeatedDeltaEvent } from '../../../src/protocols/openai-responses/repeated-delta-event.js';

const frame = (data: object) => `event: x\ndata: ${JSON.stringify(data)}\n\n`;
const textDelta = (sequence: number, delta: string) =>
  frame({
    type: 'response.output_text.delta',
    sequence_number: sequence,
    item_id: 'msg_1',
    delta,
    logprobs: [],
  });

describe('RepeatedDeltaEvent', () => {
  test('writes the learnt event around another sequence number and delta, escapes and all', () => {
    const repeated = new RepeatedDeltaEvent();
    expect(repeated.withDelta(1, 'x')).toBeUndefined();
    repeated.learn(textDelta(7, 'first'), 7, 'first');
    for (const [sequence, delta] of [
      [8, 'a "b" \\ c'],
      [12, '\n\u0001\u2028'],
      [1000, '☃ 😀 \ud800'],
      [9, ''],
    ] as const)
      expect(repeated.withDelta(sequence, delta)).toBe(textDelta(sequence, delta));
  });

  test('learns nothing, and forgets, unless the number and the delta are each there once, as written', () => {
    const refused: [string, number, string][] = [
      // Another number, or one that only begins like it.
      [textDelta(12, 'a'), 1, 'a'],
      // Another delta, or one written otherwise.
      [textDelta(1, 'ab'), 1, 'a'],
      [textDelta(1, 'a').replace('"a"', '"\\u0061"'), 1, 'a'],
      // A member name twice.
      [frame({ sequence_number: 1, delta: 'a', nested: { delta: 'a' } }), 1, 'a'],
      [frame({ sequence_number: 1, delta: 'a', nested: { sequence_number: 1 } }), 1, 'a'],
      // The delta before the number.
      [frame({ delta: 'a', sequence_number: 1 }), 1, 'a'],
    ];
    for (const [event, sequence, delta] of refused) {
      const repeated = new RepeatedDeltaEvent();
      repeated.learn(textDelta(0, 'x'), 0, 'x');
      repeated.learn(event, sequence, delta);
      expect(repeated.withDelta(2, 'b')).toBeUndefined();
    }
  });
});

describe('the Responses stream encoder on repeated deltas', () => {
  test('each delta is its block’s first delta event with its own sequence number and delta', () => {
    const encoder = codec.createStreamEncoder({
      losses: new LossLog(),
      estimatedInputTokens: 10,
      model: 'gpt-x',
    });
    const pieces = ['Hel', 'lo "w\\or"ld"', '\n\t\u0001', '\u2028 ☃ 😀', '\ud800', 'end'];
    const frames: string[] = [];
    const push = (event: StreamEvent) => {
      const written = encoder.push(event);
      frames.push(
        ...written
          .split('\n\n')
          .filter(Boolean)
          .map((part) => `${part}\n\n`),
      );
    };
    push({ type: 'response-start', id: 'resp_1', model: 'gpt-x', created: 1 });
    push({ type: 'reasoning-start', index: 0 });
    for (const text of pieces) push({ type: 'reasoning-delta', index: 0, text });
    push({ type: 'reasoning-end', index: 0 });
    push({ type: 'text-start', index: 1 });
    for (const text of pieces) push({ type: 'text-delta', index: 1, text });
    push({ type: 'text-end', index: 1 });
    push({ type: 'tool-call-start', index: 2, id: 'call_1', name: 'f' });
    for (const text of pieces) push({ type: 'tool-call-delta', index: 2, argumentsDelta: text });
    push({ type: 'tool-call-end', index: 2 });
    push({ type: 'text-start', index: 3 });
    for (const text of pieces) push({ type: 'text-delta', index: 3, text });

    const events = frames.map((written) => {
      const [name, data] = written.slice(0, -2).split('\n');
      return { written, name: name!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) };
    });
    expect(events.map(({ data }) => data.sequence_number)).toEqual(events.map((_, index) => index));
    const deltaTypes = [
      'response.reasoning_summary_text.delta',
      'response.output_text.delta',
      'response.function_call_arguments.delta',
    ];
    const deltas = events.filter(({ name }) => deltaTypes.includes(name));
    expect(deltas).toHaveLength(4 * pieces.length);
    deltas.forEach(({ written, name, data }, position) => {
      const first = deltas[position - (position % pieces.length)]!.data;
      expect(data.delta).toBe(pieces[position % pieces.length]);
      // Every member but the two that change is the first's, in the same order.
      const rebuilt = { ...first, sequence_number: data.sequence_number, delta: data.delta };
      expect(written).toBe(`event: ${name}\ndata: ${JSON.stringify(rebuilt)}\n\n`);
    });
    // The second text block is another item's content: its deltas are its own.
    expect(deltas[3 * pieces.length]!.data.item_id).not.toBe(deltas[pieces.length]!.data.item_id);
  });
});
