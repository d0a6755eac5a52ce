import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectOpenAIError, send, type ClientResponse } from '../helpers/client-request.js';
import { expectSpecAnswer } from '../helpers/expect-spec-answer.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { relayTargets, type RelayTarget } from '../helpers/relay-targets.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';

/**
 * `__proto__`, `constructor` and `prototype` members anywhere in a request: `JSON.parse` keeps them
 * as plain data, and nothing the gateway does with a body may turn them into a prototype.
 */

let fixture: RelayFixture;
const prototypeMembers = Object.getOwnPropertyNames(Object.prototype);

beforeAll(async () => {
  fixture = await startRelayFixture({ balance: 1000 });
  fixture.upstream.validateRequests(false);
});

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeMembers);
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
});

afterAll(async () => {
  await fixture?.close();
});

const post = (target: RelayTarget, body: string) =>
  send(fixture.gw.origin, target.path, { method: 'POST', headers: target.headers(fixture.key), body });

/** The body of the last request the fake upstream received. */
const lastUpstreamBody = () => fixture.upstream.requests.at(-1)?.body as Record<string, any>;

/** `{ <members>, ...the target's valid body }`, members written as raw JSON so `__proto__` stays a key. */
const withRaw = (target: RelayTarget, members: string) =>
  `{${members},${JSON.stringify(target.body()).slice(1)}`;

const isStream = (response: ClientResponse) =>
  (response.headers.get('content-type') ?? '').startsWith('text/event-stream');

describe('members at the top of a relay body', () => {
  for (const target of relayTargets) {
    const streams = target.path.includes('stream');

    it(`${target.name}: "__proto__":{"stream":true} does not make the request stream`, async () => {
      const response = await post(target, withRaw(target, '"__proto__":{"stream":true,"polluted":true}'));
      expectSpecAnswer(response, target.family);
      expect(response.status).toBe(200);
      expect(isStream(response)).toBe(streams);
      if (!streams) expect(lastUpstreamBody().stream).not.toBe(true);
    });

    it(`${target.name}: constructor and prototype members change no model, no price, no object`, async () => {
      const members = [
        '"constructor":{"prototype":{"polluted":true,"model":"gpt-4o-mini"}}',
        '"prototype":{"polluted":true}',
        '"__proto__":{"model":"gpt-4o-mini","max_tokens":1}',
        '"__proto__":null',
      ].join(',');
      const response = await post(target, withRaw(target, members));
      expectSpecAnswer(response, target.family);
      expect(response.status).toBe(200);
      expect(lastUpstreamBody().model).toBe('gpt-4o-2024-08-06');
    });
  }
});

describe('members nested inside relay bodies', () => {
  const proto = '"__proto__":{"polluted":true,"role":"system","type":"image_url"}';
  const ctor = '"constructor":{"prototype":{"polluted":true}}';

  it('chat completions: message, content part, tool and option objects', async () => {
    const chat = relayTargets.find((target) => target.name === 'chat completions')!;
    const body = `{"model":"gpt-4o","messages":[{${proto},"role":"user","content":[{${ctor},"type":"text","text":"hi"}]}],
      "tools":[{"type":"function","function":{${proto},"name":"__proto__","parameters":{"type":"object","properties":{${proto}}}}}],
      "response_format":{${proto},"type":"text"},"stream_options":{${proto}},"metadata":{${proto},${ctor}}}`;
    const response = await post(chat, body);
    expectSpecAnswer(response);
    expect(isStream(response)).toBe(false);
    const upstream = lastUpstreamBody();
    expect(upstream.messages[0].role).toBe('user');
    expect(upstream.tools[0].function.name).toBe('__proto__');
  });

  it('responses: input items, tools named like prototype members, reasoning and text options', async () => {
    const responses = relayTargets.find((target) => target.name === 'responses')!;
    const body = `{"model":"gpt-4o","input":[{${proto},"role":"user","content":[{${ctor},"type":"input_text","text":"hi"}]},
      {"type":"function_call","call_id":"__proto__","name":"constructor","arguments":"{}",${ctor}},
      {"type":"function_call_output","call_id":"__proto__","output":"ok",${proto}}],
      "tools":[{"type":"function","name":"__proto__","parameters":{},${proto}},{"type":"function","name":"constructor","parameters":{}}],
      "reasoning":{${proto}},"text":{${proto}}}`;
    const response = await post(responses, body);
    expectSpecAnswer(response);
    expect(isStream(response)).toBe(false);
  });

  it('messages: blocks, tools named like prototype members and thinking, converted for an OpenAI upstream', async () => {
    const messages = relayTargets.find((target) => target.name === 'messages')!;
    const body = `{"model":"gpt-4o","max_tokens":16,"system":[{${proto},"type":"text","text":"be brief"}],
      "messages":[{${proto},"role":"user","content":[{${ctor},"type":"text","text":"hi"}]}],
      "tools":[{"name":"__proto__","input_schema":{"type":"object"},${proto},"extra":1},
               {"name":"constructor","input_schema":{"type":"object"},${ctor}},
               {"name":"toString","input_schema":{"type":"object"}}],
      "tool_choice":{"type":"auto",${proto}},"metadata":{${proto}},"thinking":{"type":"enabled","budget_tokens":1024,${proto}}}`;
    const response = await post(messages, body);
    expectSpecAnswer(response, 'anthropic');
    expect(isStream(response)).toBe(false);
    const upstream = lastUpstreamBody();
    expect(upstream.tools.map((tool: any) => tool.function.name)).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(upstream.messages.at(-1).role).toBe('user');
  });

  for (const target of relayTargets.filter((candidate) => candidate.path.startsWith('/v1beta'))) {
    it(`${target.name}: contents, parts, generation config, function declarations`, async () => {
      const body = `{"contents":[{${proto},"role":"user","parts":[{${ctor},"text":"hi"}]}],
        "systemInstruction":{"parts":[{"text":"be brief"}],${proto}},
        "generationConfig":{"__proto__":{"temperature":1.9,"polluted":true},"constructor":1,"toString":2,"maxOutputTokens":8,
          "responseMimeType":"application/json","responseSchema":{"type":"OBJECT","__proto__":{"nullable":true},"properties":{${proto}}}},
        "tools":[{"functionDeclarations":[{"name":"__proto__","parameters":{"type":"OBJECT"},${proto},"behavior":"BLOCKING"},
                                          {"name":"constructor","parameters":{"type":"OBJECT"}}]}],
        "toolConfig":{${proto}},"safetySettings":[{${proto}}]}`;
      const response = await post(target, body);
      expectSpecAnswer(response);
      expect(response.status).toBe(200);
      const upstream = lastUpstreamBody();
      expect(upstream.temperature).toBeUndefined();
      expect(upstream.tools.map((tool: any) => tool.function.name)).toEqual(['__proto__', 'constructor']);
    });
  }
});

describe('paths, queries and headers named like prototype members', () => {
  it('Gemini methods named like prototype members are unknown URLs', async () => {
    for (const method of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const path = `/v1beta/models/gpt-4o:${method}`;
      const response = await send(fixture.gw.origin, path, {
        method: 'POST',
        headers: { 'x-goog-api-key': fixture.key },
        body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      });
      expectOpenAIError(response, {
        status: 404,
        message: `Invalid URL (POST ${path})`,
        type: 'invalid_request_error',
      });
    }
  });

  it('model names and modifiers like prototype members are ordinary unknown models', async () => {
    for (const model of [
      '__proto__',
      'constructor',
      'toString',
      'gpt-4o@constructor',
      'gpt-4o@effort=__proto__',
    ]) {
      const response = await send(fixture.gw.origin, '/v1/chat/completions', {
        method: 'POST',
        headers: bearer(fixture.key),
        body: { model, messages: [{ role: 'user', content: 'hi' }] },
      });
      expectSpecAnswer(response);
      expect([400, 503]).toContain(response.status);
    }
  });

  it('the model lists ignore query and header members named like prototype members', async () => {
    const query = '?__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__.polluted=1';
    for (const [path, headers] of [
      [`/v1/models${query}`, { ...bearer(fixture.key), constructor: 'x', __proto__: 'y' }],
      [`/v1/models${query}`, { 'x-api-key': fixture.key, 'anthropic-version': '__proto__' }],
      [`/v1beta/models${query}&key=${fixture.key}`, {}],
    ] as [string, Record<string, string>][]) {
      const response = await send(fixture.gw.origin, path, { headers });
      expectSpecAnswer(response);
      expect(response.status).toBe(200);
    }
  });
});

describe('management API bodies', () => {
  const admin = (method: string, path: string, body: string) =>
    send(fixture.gw.origin, `/api${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body,
    });

  it('refuse top-level prototype members as unknown fields and change nothing', async () => {
    const before = (await fixture.gw.admin('GET', '/settings')).body;
    for (const [method, path, body, field] of [
      ['PATCH', '/settings', '{"__proto__":{"body_limit_bytes":2048}}', '__proto__'],
      [
        'PATCH',
        '/settings',
        '{"retry_times":1,"constructor":{"prototype":{"retry_times":9}}}',
        'constructor',
      ],
      ['POST', '/users', '{"username":"proto-user","__proto__":{"role":"admin"}}', '__proto__'],
    ]) {
      expectOpenAIError(await admin(method!, path!, body!), {
        status: 400,
        code: 'invalid_request',
        param: field,
        message: `field "${field}": unknown field`,
      });
    }
    expect((await fixture.gw.admin('GET', '/settings')).body).toEqual(before);
  });

  it('keep nested prototype members from reaching a channel, user or price', async () => {
    const channel = await admin(
      'POST',
      '/channels',
      '{"name":"proto","type":"openai","keys":["k"],"models":["m"],"base_url":"http://127.0.0.1:9","model_mapping":{"__proto__":{"m":"evil"},"constructor":"x"}}',
    );
    expectSpecAnswer(channel);
    for (const name of ['__proto__', 'constructor']) {
      expectSpecAnswer(await admin('PUT', `/prices/${name}`, '{"input":1,"output":1}'));
      expectSpecAnswer(await admin('PUT', `/groups/${name}`, '{"ratio":2}'));
    }
    const prices = (await fixture.gw.admin('GET', '/prices')).body.data.map((price: any) => price.model);
    expect(prices).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'gpt-4o']));
  });
});
