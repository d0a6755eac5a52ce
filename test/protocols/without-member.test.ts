import { describe, expect, it } from 'vitest';
import { withoutMember } from '../../src/protocols/without-member.js';
import { seededRandom } from '../helpers/seeded-random.js';

const remove = (text: string, name = 'models') => withoutMember(Buffer.from(text), name).toString('utf8');

describe('withoutMember', () => {
  it('returns the very same bytes when the member is absent', () => {
    for (const text of [
      '{}',
      '{"model":"gpt-4o","messages":[]}',
      '{"a":{"models":["x"]},"b":"\\"models\\":1","c":["models"]}',
      '[{"models":1}]',
      '"models"',
    ]) {
      const bytes = Buffer.from(text);
      expect(withoutMember(bytes, 'models')).toBe(bytes);
    }
  });

  it('removes the member first, in the middle, last and alone', () => {
    expect(remove('{"models":["a","b"],"model":"m","stream":true}')).toBe('{"model":"m","stream":true}');
    expect(remove('{"model":"m","models":["a","b"],"stream":true}')).toBe('{"model":"m","stream":true}');
    expect(remove('{"model":"m","stream":true,"models":["a","b"]}')).toBe('{"model":"m","stream":true}');
    expect(remove('{"models":["a","b"]}')).toBe('{}');
  });

  it('keeps the formatting of what it leaves', () => {
    const pretty = (value: unknown) => JSON.stringify(value, null, 2);
    expect(remove(pretty({ models: ['a'], model: 'm', stream: true }))).toBe(
      pretty({ model: 'm', stream: true }),
    );
    expect(remove(pretty({ model: 'm', models: ['a'], stream: true }))).toBe(
      pretty({ model: 'm', stream: true }),
    );
    expect(remove(pretty({ model: 'm', stream: true, models: ['a'] }))).toBe(
      pretty({ model: 'm', stream: true }),
    );
    expect(remove(pretty({ models: ['a'] }))).toBe('{\n  \n}');
  });

  it('takes whitespace of any kind around the colon and commas along', () => {
    expect(remove('{ "a" : 1 ,\n  "models" :\t[ "x" ] ,\r\n  "b" : 2 }')).toBe('{ "a" : 1 ,\n  "b" : 2 }');
    expect(remove('{\n\t"models"\n:\n{ "x": [1, 2] }\n,\n\t"b" : 2\n}')).toBe('{\n\t"b" : 2\n}');
    expect(remove('{ "a" : 1 ,\n  "models" :\t[ "x" ] \r\n}')).toBe('{ "a" : 1 \r\n}');
    expect(remove(' \n{ "models" : null } \n')).toBe(' \n{  } \n');
  });

  it('compares the decoded name, escapes included', () => {
    expect(remove('{"mod\\u0065ls":["a"],"model":"m"}')).toBe('{"model":"m"}');
    expect(remove('{"model":"m","\\u006d\\u006F\\u0064\\u0065\\u006c\\u0073":["a"]}')).toBe('{"model":"m"}');
    expect(remove('{"model":"m","mode\\/ls":1,"Models":2,"models ":3,"model":4}')).toBe(
      '{"model":"m","mode\\/ls":1,"Models":2,"models ":3,"model":4}',
    );
    expect(remove('{"a\\"b":1,"x":2}', 'a"b')).toBe('{"x":2}');
    expect(remove('{"caf\\u00e9":1,"x":2}', 'café')).toBe('{"x":2}');
    expect(remove('{"café":1,"x":2}', 'café')).toBe('{"x":2}');
  });

  it('leaves nested members and string values alone', () => {
    const text =
      '{"messages":[{"role":"user","content":"\\"models\\": [1], }"}],' +
      '"metadata":{"models":["keep"]},"models":["drop"],"tools":[{"models":1}],"note":"models"}';
    expect(remove(text)).toBe(
      '{"messages":[{"role":"user","content":"\\"models\\": [1], }"}],' +
        '"metadata":{"models":["keep"]},"tools":[{"models":1}],"note":"models"}',
    );
  });

  it('skips values of every kind whole', () => {
    for (const value of [
      '"a \\"quoted\\" }, {\\\\"',
      '-1.5e+3',
      '0',
      'true',
      'false',
      'null',
      '[[1,{"a":"]"}],{}]',
      '{"}":"{","models":{"models":[]}}',
    ]) {
      expect(remove(`{"a":1,"models":${value},"b":2}`)).toBe('{"a":1,"b":2}');
      expect(remove(`{"a":1,"models":${value}}`)).toBe('{"a":1}');
      expect(remove(`{"models":${value},"b":2}`)).toBe('{"b":2}');
    }
  });

  it('removes every occurrence', () => {
    expect(remove('{"models":1,"a":2,"models":3}')).toBe('{"a":2}');
    expect(remove('{"models":1,"models":2,"a":3}')).toBe('{"a":3}');
    expect(remove('{"a":1,"models":2,"models":3}')).toBe('{"a":1}');
    expect(remove('{"a":1,"models":2,"b":3,"models":4,"models":5,"c":6,"models":7}')).toBe(
      '{"a":1,"b":3,"c":6}',
    );
    expect(remove('{"models":1, "models":2}')).toBe('{}');
  });

  it('keeps a leading byte order mark and whitespace', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const bytes = Buffer.concat([bom, Buffer.from('\r\n {"models":["a"],"model":"m"}')]);
    expect(withoutMember(bytes, 'models')).toEqual(Buffer.concat([bom, Buffer.from('\r\n {"model":"m"}')]));
    const absent = Buffer.concat([bom, Buffer.from('{"model":"m"}')]);
    expect(withoutMember(absent, 'models')).toBe(absent);
  });

  it('keeps multi-byte text byte for byte', () => {
    const text = '{"prompt":"naïve 日本語 🙂","models":["ø"],"suffix":"\\ud83d\\ude42"}';
    expect(remove(text)).toBe('{"prompt":"naïve 日本語 🙂","suffix":"\\ud83d\\ude42"}');
  });
});

describe('withoutMember over generated objects', () => {
  const random = seededRandom(20260611);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names = ['model', 'messages', 'models ', 'Models', 'mode', 'a', 'é', 'x"y', 'models\n', '0', '12'];
  const strings = ['', 'models', '"models":[1]', '{"models":', '\\', 'line\nbreak', '日本 🙂', '}]', ','];

  function generateValue(depth: number): unknown {
    const kind = Math.floor(random() * (depth > 2 ? 4 : 6));
    switch (kind) {
      case 0:
        return pick(strings);
      case 1:
        return pick([0, -1.25, 1e21, 42, 3.5e-7]);
      case 2:
        return pick([true, false, null]);
      case 3:
        return Math.floor(random() * 1000);
      case 4:
        return Array.from({ length: Math.floor(random() * 4) }, () => generateValue(depth + 1));
      default:
        return generateObject(depth + 1);
    }
  }

  function generateObject(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const size = Math.floor(random() * 5);
    const modelsAt = random() < 0.7 ? Math.floor(random() * (size + 1)) : -1;
    for (let index = 0; index <= size; index++) {
      if (index === modelsAt) object.models = generateValue(depth);
      else if (index < size) object[`${pick(names)}${index}`] = generateValue(depth);
    }
    return object;
  }

  it('gives the object without the member, and removes one span of bytes', () => {
    for (let round = 0; round < 400; round++) {
      const object = generateObject(0);
      const indent = pick([undefined, 0, 1, 2, 4, '\t', ' \n ']);
      const input = Buffer.from(JSON.stringify(object, null, indent));
      const output = withoutMember(input, 'models');

      const { models: _models, ...expected } = object;
      expect(JSON.stringify(JSON.parse(output.toString('utf8')))).toBe(JSON.stringify(expected));
      if (!Object.hasOwn(object, 'models')) {
        expect(output).toBe(input);
        continue;
      }
      let prefix = 0;
      while (prefix < output.length && output[prefix] === input[prefix]) prefix++;
      const removedLength = input.length - output.length;
      expect(removedLength).toBeGreaterThan(0);
      expect(output.toString('latin1', prefix)).toBe(input.toString('latin1', prefix + removedLength));
    }
  });
});
