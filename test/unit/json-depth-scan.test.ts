import { describe, expect, it } from 'vitest';
import {
  assignMembers,
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  setOwnMember,
  type JsonObject,
} from '../../src/protocols/wire-json.js';
import { parseJsonWithin } from '../../src/protocols/parse-json-within.js';
import { seededRandom } from '../helpers/seeded-random.js';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

/** Both input forms must agree: bytes as they come off the socket, and the same text as a string. */
function exceeds(text: string, maxDepth: number): boolean {
  const fromText = jsonDepthExceeds(text, maxDepth);
  expect(jsonDepthExceeds(Buffer.from(text, 'utf8'), maxDepth)).toBe(fromText);
  return fromText;
}

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const member of Object.values(value)) deepest = Math.max(deepest, depthOf(member));
  return deepest + 1;
}

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects alike, up to the limit and one past it', () => {
    expect(exceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(exceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(exceeds('{"a":'.repeat(3) + '1' + '}'.repeat(3), 3)).toBe(false);
    expect(exceeds('{"a":'.repeat(4) + '1' + '}'.repeat(4), 3)).toBe(true);
    expect(exceeds('[{"a":[{}]}]', 4)).toBe(false);
    expect(exceeds('[{"a":[{}]}]', 3)).toBe(true);
    expect(exceeds('[[],[],[[]]]', 3)).toBe(false);
    expect(exceeds('"plain" 1 true null', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceeds(JSON.stringify({ text: '[[[[{{{{' }), 1)).toBe(false);
    expect(exceeds(JSON.stringify({ text: 'say \\"[[[[\\" and "{{{{"' }), 1)).toBe(false);
    expect(exceeds(JSON.stringify({ '[[[key': '\\\\', after: [[1]] }), 3)).toBe(false);
    expect(exceeds(JSON.stringify({ '[[[key': '\\\\', after: [[1]] }), 2)).toBe(true);
    // Strings past the in-place look, with escapes on both sides of it.
    const long = `${'\\'.repeat(31)}"${'['.repeat(40)}${'\\'.repeat(64)}"]]`;
    expect(exceeds(JSON.stringify([long, [[]]]), 3)).toBe(false);
    expect(exceeds(JSON.stringify([long, [[]]]), 2)).toBe(true);
  });

  it('reads multi-byte UTF-8 and broken bytes without miscounting', () => {
    expect(exceeds(JSON.stringify({ text: '中文 🚀 [' }), 1)).toBe(false);
    const broken = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xff, 0xc3, 0x5b, 0xe2, 0x82]),
      Buffer.from('"}'),
    ]);
    expect(jsonDepthExceeds(broken, 1)).toBe(false);
  });

  it('stops at once on twenty thousand levels, and survives an unterminated string', () => {
    const started = performance.now();
    expect(exceeds('['.repeat(20_000), MAX_JSON_DEPTH)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
    expect(exceeds('["' + '\\'.repeat(1001), 1)).toBe(false);
  });

  it('agrees with the depth of the parsed value on a seeded random corpus', () => {
    const random = seededRandom(20_240_601);
    const alphabet = ['a', '\\', '"', '[', '{', ']', '}', 'é', '中', ' '];
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 50) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    const value = (depth: number): unknown => {
      const roll = random();
      if (depth > 10 || roll < 0.3) return roll < 0.15 ? text() : Math.floor(roll * 1000);
      const size = Math.floor(random() * 4);
      if (roll < 0.65) return Array.from({ length: size }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: size }, () => [text(), value(depth + 1)]));
    };
    for (let round = 0; round < 2000; round++) {
      const sample = value(0);
      const depth = depthOf(sample);
      const json = JSON.stringify(sample);
      expect(exceeds(json, depth)).toBe(false);
      if (depth > 0) expect(exceeds(json, depth - 1)).toBe(true);
    }
  });
});

describe('parseJsonWithin', () => {
  it('refuses a text nested too deep with its own detail, and parses the rest as parseJson does', () => {
    expect(parseJsonWithin(nested(129), { maxDepth: 128 })).toEqual({
      ok: false,
      error: 'JSON nested deeper than 128 levels',
    });
    expect(parseJsonWithin(Buffer.from(nested(128)), { maxDepth: 128 }).ok).toBe(true);
    expect(parseJsonWithin(Buffer.from('{"a":"é"}'), { maxDepth: 128 })).toEqual({
      ok: true,
      value: { a: 'é' },
    });
    expect(parseJsonWithin('{"a":', { maxDepth: 128 }).ok).toBe(false);
  });

  it('costs little next to parsing on a body of one MiB', () => {
    const body = Buffer.from(
      JSON.stringify({
        model: 'm',
        messages: Array.from({ length: 4000 }, () => ({ role: 'user', content: 'x'.repeat(250) })),
      }),
    );
    const started = performance.now();
    for (let round = 0; round < 20; round++) jsonDepthExceeds(body, MAX_JSON_DEPTH);
    // A loose bound for a shared machine: the scan takes about a millisecond here.
    expect((performance.now() - started) / 20).toBeLessThan(20);
  });
});

describe('setOwnMember and assignMembers', () => {
  it('keep a __proto__ member as data and never touch the prototype', () => {
    const parsed = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":1}',
    ) as JsonObject;
    const target: JsonObject = {};
    assignMembers(target, parsed);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__', 'constructor', 'a']);
    expect(JSON.stringify(target)).toBe(JSON.stringify(parsed));
    expect((target as { polluted?: unknown }).polluted).toBeUndefined();
    const single: JsonObject = {};
    setOwnMember(single, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(single)).toBe(Object.prototype);
    expect(Object.hasOwn(single, '__proto__')).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
