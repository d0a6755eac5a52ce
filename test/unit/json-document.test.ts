import { describe, expect, it, vi } from 'vitest';
import {
  parsedJsonDocument,
  readJsonDocument,
  scanJsonDocument,
  type JsonPath,
} from '../../src/protocols/json-document.js';
import { jsonSyntaxError } from '../../src/protocols/json-syntax.js';
import {
  LARGE_STRING_BYTES,
  parseJsonInPieces,
  parseJsonWithin,
} from '../../src/protocols/parse-json-within.js';
import { MAX_JSON_DEPTH } from '../../src/protocols/wire-json.js';
import { seededRandom } from '../helpers/seeded-random.js';

function parses(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const SAMPLES = [
  '{}',
  '[]',
  '0',
  '-0.5e+10',
  '"text"',
  'true',
  ' null ',
  '{"a":1,"b":[true,false,null],"c":{"d":"e\\"f\\\\g\\u00e9\\n"},"e":-12.5E-3}',
  '[1, 2.0, -3e2, "four", {"five": [5]}, [], {}]',
  '{"usage":{"prompt_tokens":12,"completion_tokens":9},"choices":[{"message":{"content":"héllo \\ud83d\\ude00 😀"}}]}',
  '\n\t{ "spaced" : [ 1 , 2 ] }\r\n',
];

/** Characters that make or break JSON, to mutate the samples with. */
const ALPHABET = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ',',
  ':',
  '0',
  '1',
  '-',
  '+',
  '.',
  'e',
  'E',
  'u',
  'a',
  'n',
  't',
  'f',
  ' ',
  '\n',
  '\t',
  '\u0001',
  '\u001f',
  '\u007f',
  'é',
  '\ufeff',
  'x',
];

function mutate(text: string, random: () => number): string {
  let mutated = text;
  const edits = 1 + Math.floor(random() * 3);
  for (let edit = 0; edit < edits; edit++) {
    const at = Math.floor(random() * (mutated.length + 1));
    const character = ALPHABET[Math.floor(random() * ALPHABET.length)]!;
    const kind = random();
    if (kind < 0.34) mutated = mutated.slice(0, at) + character + mutated.slice(at);
    else if (kind < 0.67) mutated = mutated.slice(0, at) + mutated.slice(at + 1);
    else mutated = mutated.slice(0, at) + character + mutated.slice(at + 1);
  }
  return mutated;
}

describe('jsonSyntaxError', () => {
  it('accepts exactly what JSON.parse accepts, over thousands of mutated texts', () => {
    const random = seededRandom(20261127);
    let accepted = 0;
    let refused = 0;
    for (let round = 0; round < 20_000; round++) {
      const sample = SAMPLES[round % SAMPLES.length]!;
      const bytes = Buffer.from(mutate(sample, random), 'utf8');
      const verdict = jsonSyntaxError(bytes, MAX_JSON_DEPTH) === undefined;
      if (verdict !== parses(bytes))
        throw new Error(`disagrees with JSON.parse on ${JSON.stringify(bytes.toString())}`);
      if (verdict) accepted++;
      else refused++;
    }
    // Both kinds are well represented, so the comparison tells something either way.
    expect(accepted).toBeGreaterThan(2_000);
    expect(refused).toBeGreaterThan(2_000);
  });

  it.each([
    ['', 'unexpected end of the JSON text'],
    ['{"a":', 'unexpected end of the JSON text'],
    ['{"a" 1}', 'unexpected character at byte 5 of the JSON text'],
    ['[01]', 'unexpected character at byte 2 of the JSON text'],
    ['"tab\there"', 'unexpected character at byte 4 of the JSON text'],
    ['"\\x"', 'unexpected character at byte 2 of the JSON text'],
    ['{} {}', 'unexpected character at byte 3 of the JSON text'],
  ])('refuses %j: %s', (text, message) => {
    expect(jsonSyntaxError(Buffer.from(text), MAX_JSON_DEPTH)).toBe(message);
  });

  it('counts nesting like the depth scan: the limit passes, one more level is refused', () => {
    const nested = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));
    expect(jsonSyntaxError(nested(4), 4)).toBeUndefined();
    expect(jsonSyntaxError(nested(5), 4)).toBe('JSON nested deeper than 4 levels');
    expect(jsonSyntaxError(Buffer.from('{"a":{"b":[{}]}}'), 4)).toBeUndefined();
    expect(jsonSyntaxError(Buffer.from('{"a":{"b":[{"c":[]}]}}'), 4)).toBe(
      'JSON nested deeper than 4 levels',
    );
  });

  it('reads bytes that are not UTF-8 inside strings as JSON.parse reads their replacement characters', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0xff, 0xc3]), Buffer.from('"}')]);
    expect(jsonSyntaxError(bytes, MAX_JSON_DEPTH)).toBeUndefined();
    expect(parses(bytes)).toBe(true);
  });
});

describe('scanJsonDocument and readJsonDocument', () => {
  const paths: JsonPath[] = [
    [],
    ['usage'],
    ['usage', 'prompt_tokens'],
    ['choices', 0, 'message', 'content'],
    ['choices', 1],
    ['missing'],
    ['__proto__'],
    ['constructor'],
    ['list', 2],
    ['list', -1],
    ['text', 0],
    ['esc"aped'],
    ['dup'],
  ];

  it('reads every path as the parsed value holds it, scanned or parsed whole', () => {
    const texts = [
      '{"usage":{"prompt_tokens":12,"completion_tokens":9},"choices":[{"message":{"content":"hé \\"quoted\\" 😀"}}]}',
      ' { "list" : [ 1 , "two" , { "three" : [3] } , null ] , "text" : "abc" , "esc\\"aped" : 1e3 }',
      '{"dup":1,"dup":{"second":true},"__proto__":{"polluted":1}}',
      '[{"usage":1}]',
      '"usage"',
      '{"usage":-0.0,"choices":[],"nested":{"usage":"inner"}}',
    ];
    for (const text of texts) {
      const expected = parsedJsonDocument(JSON.parse(text));
      for (const read of [
        scanJsonDocument(Buffer.from(text), { maxDepth: MAX_JSON_DEPTH }),
        readJsonDocument(Buffer.from(text), { maxDepth: MAX_JSON_DEPTH, whole: true }),
      ]) {
        if (!read.ok) throw new Error(read.error);
        for (const path of paths)
          expect([text, path, read.document.at(path)]).toEqual([text, path, expected.at(path)]);
        expect(read.document.value()).toEqual(JSON.parse(text));
      }
    }
  });

  it('keeps the last of repeated members and never walks the prototype', () => {
    const read = readJsonDocument(Buffer.from('{"dup":1,"dup":2}'), {
      maxDepth: MAX_JSON_DEPTH,
      whole: false,
    });
    if (!read.ok) throw new Error(read.error);
    expect(read.document.at(['dup'])).toBe(2);
    expect(read.document.at(['toString'])).toBeUndefined();
    expect(parsedJsonDocument({}).at(['toString'])).toBeUndefined();
  });

  it('reads a reply of megabytes by scanning: its usage found after its content, whatever the content holds', () => {
    const content = 'a "quoted" \\ back\\slash, {braces} and [brackets], '.repeat(60_000);
    const reply = {
      id: 'x',
      choices: [{ message: { content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 123_456 },
    };
    const bytes = Buffer.from(JSON.stringify(reply));
    expect(bytes.length).toBeGreaterThan(3_000_000);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const read = readJsonDocument(bytes, { maxDepth: MAX_JSON_DEPTH, whole: false });
      if (!read.ok) throw new Error(read.error);
      expect(read.document.at(['usage'])).toEqual(reply.usage);
      expect(read.document.at(['choices', 0, 'finish_reason'])).toBe('stop');
      // Only the values read were parsed, never the text whole.
      const longest = Math.max(...parse.mock.calls.map(([text]) => String(text).length));
      expect(longest).toBeLessThan(100);
    } finally {
      parse.mockRestore();
    }
  });

  it('refuses what is not JSON, or nests too deep, either way', () => {
    const readers = [
      (bytes: Buffer, maxDepth: number) => scanJsonDocument(bytes, { maxDepth }),
      (bytes: Buffer, maxDepth: number) => readJsonDocument(bytes, { maxDepth, whole: true }),
    ];
    for (const read of readers) {
      expect(read(Buffer.from('{"usage":'), MAX_JSON_DEPTH).ok).toBe(false);
      expect(read(Buffer.from('[[[]]]'), 2)).toEqual({
        ok: false,
        error: 'JSON nested deeper than 2 levels',
      });
    }
  });
});

describe('parseJsonInPieces', () => {
  it('gives what JSON.parse gives, member order included, and refuses what it refuses, over thousands of mutated texts', () => {
    const random = seededRandom(7);
    const samples = [
      ...SAMPLES,
      '{"b":1,"a":[1,2,{"c":"d"}],"b":2,"__proto__":{"x":1},"e":{"f":[[],{}]}}',
      '[{"a":"x\\"]}"},[1,[2,[3]]],"tail"]',
    ];
    let accepted = 0;
    for (let round = 0; round < 20_000; round++) {
      const text = mutate(samples[round % samples.length]!, random);
      const bytes = Buffer.from(text, 'utf8');
      let expected: unknown;
      let parsed = true;
      try {
        expected = JSON.parse(bytes.toString('utf8'));
      } catch {
        parsed = false;
      }
      // Pieces of a few bytes: every container is taken apart.
      let actual: unknown;
      let inPieces = true;
      try {
        actual = parseJsonInPieces(bytes, 4);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        inPieces = false;
      }
      if (parsed !== inPieces) throw new Error(`disagrees with JSON.parse on ${JSON.stringify(text)}`);
      if (!parsed) continue;
      accepted++;
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        throw new Error(`differs on ${JSON.stringify(text)}`);
    }
    expect(accepted).toBeGreaterThan(2_000);
  });

  it('keeps `__proto__` an own member and a repeated name in its first place', () => {
    const parsed = parseJsonInPieces(
      Buffer.from('{"a":1,"__proto__":{"polluted":true},"b":2,"a":3}'),
      1,
    ) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['a', '__proto__', 'b']);
    expect(parsed.a).toBe(3);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses a body of megabytes in pieces: no string as long as the body is made', () => {
    const body = {
      model: 'm',
      messages: Array.from({ length: 400 }, (_, turn) => ({
        role: 'user',
        content: `turn ${turn} `.repeat(800),
      })),
    };
    const bytes = Buffer.from(JSON.stringify(body));
    expect(bytes.length).toBeGreaterThan(2_000_000);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const read = parseJsonWithin(bytes, { maxDepth: MAX_JSON_DEPTH });
      expect(read).toEqual({ ok: true, value: body });
      const longest = Math.max(...parse.mock.calls.map(([text]) => String(text).length));
      expect(longest).toBeLessThan(LARGE_STRING_BYTES);
    } finally {
      parse.mockRestore();
    }
  });
});
