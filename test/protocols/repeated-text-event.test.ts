import { describe, expect, it, vi } from 'vitest';
import { anthropicMessagesPassthrough } from '../../src/protocols/anthropic-messages/passthrough.js';
import { openAIChatPassthrough } from '../../src/protocols/openai-chat/passthrough.js';
import { openAIResponsesPassthrough } from '../../src/protocols/openai-responses/passthrough.js';
import { RepeatedTextEvent } from '../../src/protocols/repeated-text-event.js';
import { isStringToken, numberTokenEnd } from '../../src/protocols/wire-json.js';
import { parsedWhile } from '../helpers/parsed-while.js';
import type { SseEvent } from '../../src/protocols/sse/sse-event-reader.js';

const delta = (content: unknown, extra: object = {}) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    usage: null,
    ...extra,
  });

/** OpenAI's own Responses delta: numbered, then the delta, then the padding. */
const numbered = (sequence: unknown, delta: unknown, obfuscation: unknown = 'pad') =>
  JSON.stringify({
    type: 'response.output_text.delta',
    sequence_number: sequence,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta,
    logprobs: [],
    obfuscation,
  });

describe('RepeatedTextEvent', () => {
  const learnt = () => {
    const reader = new RepeatedTextEvent();
    reader.learn(delta('Hello'), 'content', 'Hello');
    return reader;
  };

  it('reads the text of an event equal to the learnt one but for its text, escapes and all', () => {
    const reader = learnt();
    expect(reader.textOf(delta(' world'))).toBe(' world');
    expect(reader.textOf(delta('a "quoted" \\ line\nand ☃ 😀'))).toBe('a "quoted" \\ line\nand ☃ 😀');
    expect(reader.textOf(delta(''))).toBe('');
    expect(reader.textOf(delta('Hello').replace('"Hello"', '"\\u0048i"'))).toBe('Hi');
  });

  it('leaves anything else to be parsed whole', () => {
    const reader = learnt();
    // Another member, another id, a finish: the text around differs.
    expect(reader.textOf(delta('x', { system_fingerprint: 'fp' }))).toBeUndefined();
    expect(reader.textOf(delta('x').replace('chatcmpl-1', 'chatcmpl-2'))).toBeUndefined();
    expect(
      reader.textOf(delta('x').replace('"finish_reason":null', '"finish_reason":"stop"')),
    ).toBeUndefined();
    // Between the same ends, more than one string token: the usage a client must be charged for.
    const smuggled = delta('x').replace('"x"', '"x"},"usage":{"prompt_tokens":5},"y":{"z":"w"');
    expect(reader.textOf(smuggled)).toBeUndefined();
    // Not a string, or not JSON at all.
    expect(reader.textOf(delta(null))).toBeUndefined();
    expect(reader.textOf(delta('x').replace('"x"', '"x'))).toBeUndefined();
    expect(reader.textOf('[DONE]')).toBeUndefined();
  });

  it('learns nothing, and forgets, when the name is not once a member with a string', () => {
    const reader = learnt();
    reader.learn(JSON.stringify({ choices: [{ delta: { content: 'a' } }], note: 'content' }), 'content', 'a');
    expect(reader.textOf(delta('x'))).toBeUndefined();
    reader.learn(delta(null), 'content', 'null');
    expect(reader.textOf(delta(null))).toBeUndefined();
    reader.learn(JSON.stringify({ a: { content: 'x' }, b: { content: 'y' } }), 'content', 'x');
    expect(reader.textOf(JSON.stringify({ a: { content: 'x' }, b: { content: 'z' } }))).toBeUndefined();
    // The only "content" is not the member whose text was read (the delta's name is escaped).
    const escaped = '{"top":{"content":"y"},"delta":{"con\\u0074ent":"x"}}';
    expect(JSON.parse(escaped)).toEqual({ top: { content: 'y' }, delta: { content: 'x' } });
    reader.learn(escaped, 'content', 'x');
    expect(reader.textOf(escaped.replace('"y"', '"z"'))).toBeUndefined();
  });

  it('learns a member with JSON whitespace on either side of its colon, as Gemini writes it', () => {
    for (const [before, after] of [
      ['', ' '],
      [' ', ''],
      ['\t', '\n  '],
      ['\r\n', ' \t'],
    ]) {
      const spaced = (text: string, total: number) =>
        `{"parts": [{"text"${before}:${after}${JSON.stringify(text)}}],"usage": {"total"${before}:${after}${total}}}`;
      expect(JSON.parse(spaced('a', 1))).toEqual({ parts: [{ text: 'a' }], usage: { total: 1 } });
      const reader = new RepeatedTextEvent(['total']);
      reader.learn(spaced('a', 1), 'text', 'a');
      expect([before, after, reader.textOf(spaced('b "c"', 12))]).toEqual([before, after, 'b "c"']);
      // The whitespace is part of the learnt event: other whitespace is parsed whole.
      expect(reader.textOf(spaced('b', 2).replace(`"text"${before}:${after}`, '"text":'))).toBeUndefined();
    }
  });

  it('never reads an event of unknown shape before it learnt one', () => {
    expect(new RepeatedTextEvent().textOf(delta('x'))).toBeUndefined();
  });

  it('writes the learnt event around another text, and nothing once it forgot', () => {
    const reader = learnt();
    for (const text of ['', 'a "b" \\ c\n', '\ud800 😀']) expect(reader.withText(text)).toBe(delta(text));
    reader.learn(delta(null), 'content', 'null');
    expect(reader.withText('x')).toBeUndefined();
    expect(new RepeatedTextEvent().withText('x')).toBeUndefined();
  });
});

describe('RepeatedTextEvent with an unread member', () => {
  /** OpenAI's own chunk: its random `obfuscation` padding after the usage. */
  const padded = (content: unknown, obfuscation: unknown, extra: object = {}) =>
    delta(content, { obfuscation, ...extra });
  const learnt = (event = padded('Hello', 'Xy3')) => {
    const reader = new RepeatedTextEvent(['obfuscation']);
    reader.learn(event, 'content', 'Hello');
    return reader;
  };

  it('reads the text of an event equal to the learnt one but for its text and the unread string', () => {
    const reader = learnt();
    expect(reader.textOf(padded(' world', 'a'))).toBe(' world');
    expect(reader.textOf(padded('', ''))).toBe('');
    expect(reader.textOf(padded('a "b" \\ ☃ 😀', 'q"\\/\n\t\u0001😀'))).toBe('a "b" \\ ☃ 😀');
    expect(reader.textOf(padded('x', 'y').replace('"y"', '"\\u00e9\\/"'))).toBe('x');
    // The padding first, the text after it.
    const first = (content: string, obfuscation: string) =>
      JSON.stringify({ obfuscation, choices: [{ index: 0, delta: { content } }] });
    const reversed = learnt(first('Hello', 'long padding'));
    expect(reversed.textOf(first('next', ''))).toBe('next');
    expect(reversed.textOf(first('n"e\\xt', 'p"a\\d'))).toBe('n"e\\xt');
  });

  it('parses the text alone, never the unread string', () => {
    const reader = learnt();
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(reader.textOf(padded('two', 'pad'))).toBe('two');
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"two"']);
    } finally {
      parse.mockRestore();
    }
  });

  it('leaves to be parsed whole an unread member that is not one valid string', () => {
    const reader = learnt();
    for (const obfuscation of ['null', '12', '"a" ', '"a","usage":{"prompt_tokens":5},"z":"b"', '{"a":"b"}'])
      expect(reader.textOf(padded('x', 'y').replace('"y"', obfuscation))).toBeUndefined();
    // Strings JSON does not allow: a raw control character, unknown or cut escapes, no closing quote.
    for (const obfuscation of ['"a\nb"', '"\\x"', '"\\u12"', '"\\u12g4"', '"ab\\"', '"ab'])
      expect(reader.textOf(padded('x', 'y').replace('"y"', obfuscation))).toBeUndefined();
    // Members smuggled after the text, before the padding; a text that is not a string.
    const smuggled = padded('x', 'y').replace('"x"', '"x"}}],"service_tier":"flex","z":[{"a":{"b":"c"');
    expect(JSON.parse(smuggled).service_tier).toBe('flex');
    expect(reader.textOf(smuggled)).toBeUndefined();
    expect(reader.textOf(padded(null, 'y'))).toBeUndefined();
    expect(reader.textOf(padded('x', 'y', { system_fingerprint: 'fp' }))).toBeUndefined();
    // Between the two strings, a change of the same length: a finish.
    const finished = padded('x', 'y').replace('"finish_reason":null', '"finish_reason":"ab"');
    expect(finished.length).toBe(padded('x', 'y').length);
    expect(reader.textOf(finished)).toBeUndefined();
    expect(reader.textOf(padded('x', 'y').replace('"x"', '"x'))).toBeUndefined();
  });

  it('learns one hole when the event has no unread member, and none when it has it twice or not as a string or number', () => {
    const plain = new RepeatedTextEvent(['obfuscation']);
    plain.learn(delta('Hello'), 'content', 'Hello');
    expect(plain.textOf(delta('x'))).toBe('x');
    expect(plain.textOf(padded('x', 'y'))).toBeUndefined();
    for (const event of [
      padded('Hello', null),
      padded('Hello', 'a', { choices: [{ index: 0, delta: { content: 'Hello', obfuscation: 'b' } }] }),
      padded('Hello', 'a', { note: 'obfuscation' }),
    ]) {
      const reader = learnt();
      reader.learn(event, 'content', 'Hello');
      expect(reader.textOf(event)).toBeUndefined();
    }
  });

  it('learns nothing from an event whose unread string never closes', () => {
    const cut = '{"content":"Hello","obfuscation":"ab';
    const reader = learnt();
    reader.learn(cut, 'content', 'Hello');
    expect(reader.textOf('{"content":"x","obfuscation":"abc"')).toBeUndefined();
  });

  it('writes nothing around an event learnt with an unread string', () => {
    expect(learnt().withText('x')).toBeUndefined();
  });
});

describe('RepeatedTextEvent with an unread number', () => {
  const learnt = () => {
    const reader = new RepeatedTextEvent(['sequence_number', 'obfuscation']);
    reader.learn(numbered(9, 'Hello'), 'delta', 'Hello');
    return reader;
  };

  it('reads the text around a number of any length and the padding', () => {
    const reader = learnt();
    expect(reader.textOf(numbered(10, ' wor"ld', ''))).toBe(' wor"ld');
    expect(reader.textOf(numbered(123456, '', 'long padding here'))).toBe('');
    expect(reader.textOf(numbered(0, 'x'))).toBe('x');
    expect(reader.textOf(numbered(1.5e3, 'x').replace('1500', '-1.5E+3'))).toBe('x');
  });

  it('leaves to be parsed whole a number hole that holds no JSON number, or another kind', () => {
    const reader = learnt();
    for (const token of ['"10"', 'null', '01', '1.', '.5', '-', '+1', '1e', '1e+', '0x1', '1 ', 'NaN'])
      expect([token, reader.textOf(numbered(10, 'x').replace('10', token))]).toEqual([token, undefined]);
    // Whole but for what follows: not JSON.
    expect(reader.textOf(numbered(10, 'x') + '}')).toBeUndefined();
    const another = new RepeatedTextEvent(['sequence_number']);
    another.learn(numbered('9', 'Hello'), 'delta', 'Hello');
    expect(another.textOf(numbered('10', 'x'))).toBe('x');
    expect(another.textOf(numbered(10, 'x'))).toBeUndefined();
  });

  it('learns nothing when an unread member holds neither a string nor a number', () => {
    for (const value of [null, true, [1], { a: 1 }]) {
      const reader = learnt();
      reader.learn(numbered(value, 'Hello'), 'delta', 'Hello');
      expect(reader.textOf(numbered(value, 'x'))).toBeUndefined();
    }
  });
});

describe('numberTokenEnd', () => {
  it('agrees with JSON.parse on every short token over digits, signs, points and exponents', () => {
    const alphabet = ['-', '+', '0', '1', '9', '.', 'e', 'E', 'x'];
    let checked = 0;
    const visit = (token: string, length: number) => {
      if (token !== '') {
        let isNumber: boolean;
        try {
          isNumber = typeof JSON.parse(token) === 'number';
        } catch {
          isNumber = false;
        }
        expect([token, numberTokenEnd(token, 0) === token.length]).toEqual([token, isNumber]);
        checked += 1;
      }
      if (length === 0) return;
      for (const character of alphabet) visit(token + character, length - 1);
    };
    visit('', 5);
    expect(checked).toBeGreaterThan(60_000);
  });

  it('ends where the number does, and is -1 where none starts', () => {
    expect(numberTokenEnd('{"a":12,"b":1}', 5)).toBe(7);
    expect(numberTokenEnd('[-0.5e-3]', 1)).toBe(8);
    expect(numberTokenEnd('{"a":"1"}', 5)).toBe(-1);
    expect(numberTokenEnd('1', 1)).toBe(-1);
  });
});

describe('isStringToken', () => {
  const parsesToString = (token: string) => {
    try {
      return typeof JSON.parse(token) === 'string';
    } catch {
      return false;
    }
  };

  it('agrees with JSON.parse on every short token over quotes, escapes, hex digits and controls', () => {
    const alphabet = ['"', '\\', 'u', '0', 'f', 'F', 'g', 'n', 'x', '/', '\n', '\u001f', ' ', '😀'];
    let checked = 0;
    const visit = (inner: string, length: number) => {
      const token = `"${inner}"`;
      expect([token, isStringToken(token, 0, token.length)]).toEqual([token, parsesToString(token)]);
      checked += 1;
      if (length === 0) return;
      for (const character of alphabet) visit(inner + character, length - 1);
    };
    visit('', 4);
    visit('\\u', 4);
    expect(checked).toBeGreaterThan(40_000);
  });

  it('reads only between start and end', () => {
    const text = 'x:"ab\\"c",y';
    expect(isStringToken(text, 2, 9)).toBe(true);
    expect(isStringToken(text, 2, 8)).toBe(false);
    expect(isStringToken(text, 2, 10)).toBe(false);
    expect(isStringToken('""', 0, 2)).toBe(true);
    expect(isStringToken('"', 0, 1)).toBe(false);
  });
});

describe('the OpenAI chat stream tap on repeated content deltas', () => {
  const event = (data: string): SseEvent => ({ event: undefined, id: undefined, data });

  it('gives the produced text, usage, finish and validity that parsing every chunk gives', () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: true });
    const plain = (content: string) => delta(content, { usage: undefined });
    const opening = delta('', { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] });
    expect(tap.onEvent(event(opening))).toEqual({ kind: 'forward' });
    for (const piece of ['Hel', 'lo', ', "wor', 'ld" \\ ☃', ''])
      expect(tap.onEvent(event(plain(piece)))).toEqual({ kind: 'forward' });
    expect(tap.missingEnd()).toBeDefined();
    // Equal around the text, but with members smuggled in between: parsed whole, so its finish and
    // its usage are read.
    const smuggled = plain('x').replace(
      '"x"',
      '"x"},"finish_reason":"length"}],"usage":{"prompt_tokens":3,"completion_tokens":4},"z":[{"a":{"b":"c"',
    );
    expect(JSON.parse(smuggled)).toMatchObject({ usage: { prompt_tokens: 3 } });
    expect(tap.onEvent(event(smuggled))).toEqual({ kind: 'forward' });
    expect(tap.producedText()).toBe('Hello, "world" \\ ☃x');
    expect(tap.usage()).toMatchObject({ inputTokens: 3, outputTokens: 4 });
    expect(tap.missingEnd()).toBeUndefined();
    expect(tap.facts?.()).toMatchObject({ finishReasons: ['length'] });
  });

  it('parses a repeated delta by its content alone', () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    tap.onEvent(event(delta('first')));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const piece of ['second', 'third']) tap.onEvent(event(delta(piece)));
      expect(parse.mock.calls.map(([text]) => text)).toEqual(['"second"', '"third"']);
    } finally {
      parse.mockRestore();
    }
    expect(tap.producedText()).toBe('firstsecondthird');
  });

  it("reads OpenAI's own chunks, padded by obfuscation, by their content alone", () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    const padded = (content: string, obfuscation: string) => delta(content, { obfuscation });
    tap.onEvent(event(padded('first', 'Qx')));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const [piece, padding] of [
        ['second', 'a1b2c3d4'],
        ['third', ''],
      ])
        expect(tap.onEvent(event(padded(piece!, padding!)))).toEqual({ kind: 'forward' });
      expect(parse.mock.calls.map(([text]) => text)).toEqual(['"second"', '"third"']);
    } finally {
      parse.mockRestore();
    }
    expect(tap.producedText()).toBe('firstsecondthird');
    // Padding JSON does not allow (a raw control character) still ends the stream.
    const unescaped = padded('x', 'y').replace('"y"', '"a\u0001b"');
    expect(unescaped).toContain('\u0001');
    expect(tap.onEvent(event(unescaped))).toMatchObject({ kind: 'invalid' });
  });

  it("reads a repeated reasoning delta (DeepSeek's reasoning_content) by its reasoning alone", () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    const reasoning = (piece: string) =>
      delta(null, {
        choices: [{ index: 0, delta: { content: null, reasoning_content: piece }, finish_reason: null }],
      });
    const answer = (piece: string) =>
      delta(null, {
        choices: [{ index: 0, delta: { content: piece, reasoning_content: null }, finish_reason: null }],
      });
    tap.onEvent(event(reasoning('Let')));
    const parsed = parsedWhile(() => {
      for (const piece of [' me', ' "think"']) tap.onEvent(event(reasoning(piece)));
    });
    expect(parsed).toEqual(['" me"', '" \\"think\\""']);
    tap.onEvent(event(answer('So')));
    expect(parsedWhile(() => tap.onEvent(event(answer('!'))))).toEqual(['"!"']);
    // Both at once: two pieces, never learnt, each chunk parsed whole.
    const both = (piece: string) =>
      delta(null, {
        choices: [{ index: 0, delta: { content: piece, reasoning_content: 'c' }, finish_reason: null }],
      });
    // (The first has the same text in both, so that the produced piece is also its content.)
    tap.onEvent(event(both('c')));
    expect(parsedWhile(() => tap.onEvent(event(both('y'))))[0]).toBe(both('y'));
    expect(tap.producedText()).toBe('Let me "think"So!ccyc');
  });

  it("reads a repeated tool call's arguments by its arguments alone", () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    const call = (value: object) =>
      delta(null, { choices: [{ index: 0, delta: { tool_calls: [value] }, finish_reason: null }] });
    const args = (piece: string) => call({ index: 0, function: { arguments: piece } });
    tap.onEvent(
      event(call({ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } })),
    );
    tap.onEvent(event(args('{"a')));
    const parsed = parsedWhile(() => {
      for (const piece of ['":', '"b"}'])
        expect(tap.onEvent(event(args(piece)))).toEqual({ kind: 'forward' });
    });
    expect(parsed).toEqual(['"\\":"', '"\\"b\\"}"']);
    expect(tap.producedText()).toBe('{"a":"b"}');
  });

  it('still ends the stream on a chunk that matches around the text but is not JSON', () => {
    const tap = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    tap.onEvent(event(delta('a')));
    expect(tap.onEvent(event(delta('b')))).toEqual({ kind: 'forward' });
    expect(tap.onEvent(event(delta('b').replace('"b"', '"b" "c"')))).toMatchObject({ kind: 'invalid' });
  });
});

describe('the OpenAI Responses stream tap on repeated deltas', () => {
  const event = (data: string, name?: string): SseEvent => ({ event: name, id: undefined, data });
  const errorNumber = (tap: ReturnType<typeof openAIResponsesPassthrough.createStreamTap>) =>
    JSON.parse(tap.errorEvent({ message: 'm', code: 'c', status: 502 }).split('data: ')[1]!).sequence_number;

  it('reads a repeated delta by its delta alone, and numbers its own error after the last event', () => {
    const tap = openAIResponsesPassthrough.createStreamTap({ hideUsageEvents: false });
    tap.onEvent(event(numbered(4, 'first')));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const [sequence, piece, padding] of [
        [5, 'second', 'x'],
        [6, 'thi"rd', ''],
      ] as const)
        expect(tap.onEvent(event(numbered(sequence, piece, padding)))).toEqual({ kind: 'forward' });
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"second"', '"thi\\"rd"']);
    } finally {
      parse.mockRestore();
    }
    expect(tap.producedText()).toBe('firstsecondthi"rd');
    expect(errorNumber(tap)).toBe(7);
    // An event parsed whole after it numbers the error; one without a number does not.
    tap.onEvent(event(JSON.stringify({ type: 'response.output_text.done', sequence_number: 8, text: 'x' })));
    expect(errorNumber(tap)).toBe(9);
    tap.onEvent(event(numbered(9, 'again')));
    tap.onEvent(event(numbered(10, 'more')));
    tap.onEvent(event(JSON.stringify({ type: 'keepalive' })));
    expect(errorNumber(tap)).toBe(11);
  });

  it('numbers an error after the last numbered event when the deltas carry no number', () => {
    const tap = openAIResponsesPassthrough.createStreamTap({ hideUsageEvents: false });
    const unnumbered = (delta: string) => JSON.stringify({ type: 'response.output_text.delta', delta });
    tap.onEvent(event(JSON.stringify({ type: 'response.created', sequence_number: 3, response: {} })));
    for (const piece of ['a', 'b', 'c']) tap.onEvent(event(unnumbered(piece)));
    expect(tap.producedText()).toBe('abc');
    expect(errorNumber(tap)).toBe(4);
  });

  it('learns only a delta typed by its own member, and still ends the stream on bad padding', () => {
    const tap = openAIResponsesPassthrough.createStreamTap({ hideUsageEvents: false });
    const untyped = (sequence: number, delta: string) =>
      JSON.stringify({ sequence_number: sequence, item_id: 'msg_1', delta });
    tap.onEvent(event(untyped(1, 'a'), 'response.output_text.delta'));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      tap.onEvent(event(untyped(2, 'b'), 'response.output_text.delta'));
      expect(parse.mock.calls.map(([source]) => source)).toEqual([untyped(2, 'b')]);
    } finally {
      parse.mockRestore();
    }
    tap.onEvent(event(numbered(3, 'c')));
    expect(tap.onEvent(event(numbered(4, 'd').replace('"pad"', '"p\\qd"')))).toMatchObject({
      kind: 'invalid',
    });
    expect(tap.producedText()).toBe('abc');
  });
});

describe('the Anthropic messages stream tap on repeated deltas', () => {
  const event = (data: string, name?: string): SseEvent => ({ event: name, id: undefined, data });
  const blockDelta = (delta: object, index = 0) =>
    JSON.stringify({ type: 'content_block_delta', index, delta });
  const text = (piece: string) => blockDelta({ type: 'text_delta', text: piece });

  it('gives the produced text, usage, stop reason and validity that parsing every event gives', () => {
    const tap = anthropicMessagesPassthrough.createStreamTap({ hideUsageEvents: false });
    const start = JSON.stringify({
      type: 'message_start',
      message: { model: 'claude-x', usage: { input_tokens: 7, output_tokens: 1 } },
    });
    expect(tap.onEvent(event(start))).toEqual({ kind: 'forward' });
    for (const piece of ['Hel', 'lo', ', "wor', '', 'ld" \\ ☃'])
      expect(tap.onEvent(event(text(piece)))).toEqual({ kind: 'forward' });
    // Equal around the text, but with members smuggled in between: parsed whole, its last `type`
    // makes it a message_delta, whose usage counts and whose text is not produced.
    const smuggled = text('x').replace(
      '"x"',
      '"x"},"type":"message_delta","usage":{"output_tokens":9},"z":{"a":"b"',
    );
    expect(JSON.parse(smuggled)).toMatchObject({ type: 'message_delta', usage: { output_tokens: 9 } });
    expect(tap.onEvent(event(smuggled))).toEqual({ kind: 'forward' });
    expect(tap.usage()).toMatchObject({ inputTokens: 7, outputTokens: 9 });
    // Thinking and tool input are learnt in turn; text before them is not taken for them.
    for (const piece of ['mull', 'ing'])
      tap.onEvent(event(blockDelta({ type: 'thinking_delta', thinking: piece }, 1)));
    for (const piece of ['{"a"', ':1}'])
      tap.onEvent(event(blockDelta({ type: 'input_json_delta', partial_json: piece }, 2)));
    expect(tap.onEvent(event(text('!')))).toEqual({ kind: 'forward' });
    expect(tap.onEvent(event(text('!').replace('"!"', '"!" 1')))).toMatchObject({ kind: 'invalid' });
    expect(tap.producedText()).toBe('Hello, "world" \\ ☃mulling{"a":1}!');
    expect(tap.missingEnd()).toBeDefined();
  });

  it('reads a repeated delta by its text alone, and only one whose type is its own', () => {
    const tap = anthropicMessagesPassthrough.createStreamTap({ hideUsageEvents: false });
    tap.onEvent(event(text('first')));
    const untyped = (piece: string) =>
      JSON.stringify({ index: 0, delta: { type: 'text_delta', text: piece } });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (const piece of ['second', 'third']) tap.onEvent(event(text(piece)));
      expect(parse.mock.calls.map(([source]) => source)).toEqual(['"second"', '"third"']);
      parse.mockClear();
      // Typed by its SSE event name alone: read whole, each time.
      for (const piece of ['fourth', 'fifth']) tap.onEvent(event(untyped(piece), 'content_block_delta'));
      expect(parse.mock.calls.map(([source]) => source)).toEqual([untyped('fourth'), untyped('fifth')]);
    } finally {
      parse.mockRestore();
    }
    expect(tap.producedText()).toBe('firstsecondthirdfourthfifth');
  });
});
