import { afterEach, describe, expect, it } from 'vitest';
import { LossLog } from '../../src/ir/loss.js';
import type { ProtocolName } from '../../src/protocols/protocol-codec.js';
import { protocols } from '../../src/protocols/registry.js';

/**
 * Every codec copies members it does not know by name into extensions and back out. A member
 * named `__proto__` must travel as data: never set a prototype, never leak into another tool's or
 * message's members, never vanish.
 */

const prototypeMembers = Object.getOwnPropertyNames(Object.prototype);

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeMembers);
  expect(({} as { injected?: unknown }).injected).toBeUndefined();
});

/** Paths of every object in a value whose prototype is not the plain one. */
function foreignPrototypes(value: unknown, path = '$', found: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return found;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) found.push(path);
  for (const key of Object.keys(value))
    foreignPrototypes((value as Record<string, unknown>)[key], `${path}.${key}`, found);
  return found;
}

/** Every object in a value that names `web`: a tool, a declaration, a call or its output item. */
function objectsNamedWeb(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null) return found;
  const record = value as Record<string, unknown>;
  if (record.name === 'web' || record.call_id === 'web') found.push(record);
  for (const key of Object.keys(record)) objectsNamedWeb(record[key], found);
  return found;
}

const requestBodies: Record<ProtocolName, string> = {
  'openai-chat': `{"model":"m","__proto__":{"stream":true,"injected":1},"x_extra":{"__proto__":{"injected":1}},
    "messages":[{"role":"user","content":"hi","__proto__":{"role":"system","injected":1},"x_message":1}],
    "tools":[{"type":"function","function":{"name":"__proto__","parameters":{}}},
             {"type":"function","function":{"name":"web","parameters":{}}}]}`,
  'openai-responses': `{"model":"m","__proto__":{"stream":true,"injected":1},"input":[
      {"role":"user","content":"hi"},
      {"type":"function_call","call_id":"__proto__","name":"lookup","arguments":"{}","web":{"injected":1}},
      {"type":"function_call","call_id":"web","name":"web","arguments":"{}"},
      {"type":"function_call_output","call_id":"__proto__","output":"ok","web":{"injected":1}},
      {"type":"function_call_output","call_id":"web","output":"ok"}],
    "tools":[{"type":"function","name":"__proto__","parameters":{},"web":{"injected":1}},
             {"type":"function","name":"web","parameters":{}}]}`,
  'anthropic-messages': `{"model":"m","max_tokens":8,"__proto__":{"stream":true,"injected":1},"x_extra":{"__proto__":{}},
    "messages":[{"role":"user","content":[{"type":"text","text":"hi","__proto__":{"injected":1}}]}],
    "tools":[{"name":"__proto__","input_schema":{"type":"object"},"web":{"injected":1}},
             {"name":"web","input_schema":{"type":"object"}}]}`,
  gemini: `{"__proto__":{"injected":1},"contents":[{"role":"user","parts":[{"text":"hi"}]}],
    "generationConfig":{"__proto__":{"temperature":1.5,"injected":1},"maxOutputTokens":8,"candidateCount":1,
      "responseMimeType":"text/x-custom","responseSchema":{"type":"OBJECT","__proto__":{"nullable":true}}},
    "tools":[{"functionDeclarations":[{"name":"__proto__","parameters":{"type":"OBJECT"},"web":{"injected":1}},
                                      {"name":"web","parameters":{"type":"OBJECT"}}]}]}`,
  'bedrock-converse': `{"__proto__":{"injected":1},"x_extra":{"__proto__":{"injected":1}},
    "messages":[{"role":"user","content":[{"text":"hi"}]}],
    "additionalModelRequestFields":{"__proto__":{"top_k":3,"injected":1}},
    "toolConfig":{"tools":[{"toolSpec":{"name":"__proto__","inputSchema":{"json":{"type":"object"}}}},
                           {"toolSpec":{"name":"web","inputSchema":{"json":{"type":"object"}}}}]}}`,
};

const names = Object.keys(protocols) as ProtocolName[];

describe.each(names)('%s requests with prototype-named members', (name) => {
  const decode = () =>
    protocols[name].codec.decodeRequest(JSON.parse(requestBodies[name]) as Record<string, unknown>, {
      losses: new LossLog(),
      model: 'm',
      stream: false,
    });

  it('decode to plain objects, and nothing becomes a prototype', () => {
    const request = decode();
    expect(foreignPrototypes(request)).toEqual([]);
    expect(request.stream).toBe(false);
    expect(request.temperature).toBeUndefined();
  });

  it.each(names)('encode for %s as plain data, without members leaking between tools', (target) => {
    const body = protocols[target].codec.encodeRequest(decode(), {
      losses: new LossLog(),
      defaultMaxTokens: 64,
    });
    expect(foreignPrototypes(body)).toEqual([]);
    for (const named of objectsNamedWeb(body)) {
      expect(Object.keys(named)).not.toContain('injected');
      expect(Object.keys(named)).not.toContain('web');
    }
    const parsedBack = JSON.parse(JSON.stringify(body)) as unknown;
    expect(foreignPrototypes(parsedBack)).toEqual([]);
    expect(body.stream).not.toBe(true);
  });
});

describe('members a same-protocol round trip keeps', () => {
  it('keeps a __proto__ member of a tool with that tool (Responses)', () => {
    const { codec } = protocols['openai-responses'];
    const request = codec.decodeRequest(
      JSON.parse(requestBodies['openai-responses']) as Record<string, unknown>,
      {
        losses: new LossLog(),
      },
    );
    const body = codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 64 }) as {
      tools: Record<string, unknown>[];
      input: Record<string, unknown>[];
    };
    const [protoTool, webTool] = body.tools;
    expect(protoTool).toMatchObject({ name: '__proto__', web: { injected: 1 } });
    expect(webTool).not.toHaveProperty('injected');
    expect(Object.keys(webTool ?? {})).not.toContain('web');
    for (const item of body.input.filter((entry) => entry.call_id === 'web')) {
      expect(Object.keys(item)).not.toContain('web');
    }
  });

  it('keeps a __proto__ member of the generation config as data (Gemini)', () => {
    const { codec } = protocols.gemini;
    const request = codec.decodeRequest(JSON.parse(requestBodies.gemini) as Record<string, unknown>, {
      losses: new LossLog(),
      model: 'm',
      stream: false,
    });
    const body = codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 64 }) as {
      generationConfig: Record<string, unknown>;
      tools: { functionDeclarations: Record<string, unknown>[] }[];
    };
    expect(Object.hasOwn(body.generationConfig, '__proto__')).toBe(true);
    expect(body.generationConfig.temperature).toBeUndefined();
    const declarations = body.tools[0]?.functionDeclarations ?? [];
    expect(declarations.find((declaration) => declaration.name === 'web')).not.toHaveProperty('injected');
    expect(Object.keys(declarations.find((declaration) => declaration.name === 'web') ?? {})).not.toContain(
      'web',
    );
  });

  it('keeps tool fields of a tool named __proto__ with that tool (Anthropic)', () => {
    const { codec } = protocols['anthropic-messages'];
    const request = codec.decodeRequest(
      JSON.parse(requestBodies['anthropic-messages']) as Record<string, unknown>,
      {
        losses: new LossLog(),
      },
    );
    const body = codec.encodeRequest(request, { losses: new LossLog(), defaultMaxTokens: 64 }) as {
      tools: Record<string, unknown>[];
    };
    expect(body.tools[0]).toMatchObject({ name: '__proto__', web: { injected: 1 } });
    expect(Object.keys(body.tools[1] ?? {})).not.toContain('web');
  });
});
