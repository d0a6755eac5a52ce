import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOpenAIError, send, type ClientResponse } from '../helpers/client-request.js';
import { expectSpecAnswer } from '../helpers/expect-spec-answer.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { adminBodyTargets, relayTargets, type RelayTarget } from '../helpers/relay-targets.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';

/**
 * Bodies built to hurt a JSON reader: nesting past any sane depth, broken UTF-8, NUL bytes, and a
 * wrong type in every top-level field of every relaying endpoint. Each gets an answer in the
 * spec's shapes, never a crash or a 5xx of the gateway's own.
 */

let fixture: RelayFixture;
const prototypeMembers = Object.getOwnPropertyNames(Object.prototype);

beforeAll(async () => {
  fixture = await startRelayFixture({ balance: 1000 });
  // Odd bodies are the point here: the fake relays what it is given instead of refusing it.
  fixture.upstream.validateRequests(false);
});

afterAll(async () => {
  await fixture?.close();
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeMembers);
});

const post = (target: RelayTarget, body: string | Buffer) =>
  send(fixture.gw.origin, target.path, { method: 'POST', headers: target.headers(fixture.key), body });
const postAdmin = (method: string, path: string, body: string | Buffer) =>
  send(fixture.gw.origin, path, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body });

/** A valid body of the target with one raw JSON member added before the others. */
const withMember = (target: RelayTarget, name: string, json: string) =>
  `{"${name}":${json},${JSON.stringify(target.body()).slice(1)}`;

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const tooDeep = 'Invalid request: JSON nested deeper than 128 levels, invalid JSON request body';

/** The 400 for a body that is not JSON, with what `JSON.parse` says about the same text. */
function expectInvalidJson(response: ClientResponse, body: string | Buffer): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let detail = 'empty request body';
  if (text !== '') {
    try {
      JSON.parse(text);
      detail = 'valid JSON';
    } catch (error) {
      detail = (error as Error).message;
    }
  }
  expectOpenAIError(response, {
    status: 400,
    message: `Invalid request: ${detail}, invalid JSON request body`,
  });
}

describe('nesting depth', () => {
  for (const target of relayTargets) {
    it(`${target.name}: twenty thousand levels are a 400, not a stack overflow`, async () => {
      for (const body of [arrays(20_000), withMember(target, 'x', arrays(20_000)), '{"a":'.repeat(20_000)]) {
        expectOpenAIError(await post(target, body), { status: 400, message: tooDeep });
      }
    });

    it(`${target.name}: 128 levels pass, 129 are refused`, async () => {
      // The body object is the first level.
      const atLimit = await post(target, withMember(target, 'x_nested', arrays(127)));
      expectSpecAnswer(atLimit, target.family);
      expect(atLimit.text).not.toContain('nested deeper');
      const pastLimit = await post(target, withMember(target, 'x_nested', arrays(128)));
      expectOpenAIError(pastLimit, { status: 400, message: tooDeep });
      const inString = await post(target, withMember(target, 'x_text', JSON.stringify(arrays(5000))));
      expectSpecAnswer(inString, target.family);
      expect(inString.text).not.toContain('nested deeper');
    });
  }

  it('management API bodies refuse the same nesting with their own 400', async () => {
    for (const { method, path, body } of adminBodyTargets) {
      for (const hostile of [arrays(20_000), `{"x":${arrays(128)},${JSON.stringify(body).slice(1)}`]) {
        expectOpenAIError(await postAdmin(method, path, hostile), {
          status: 400,
          code: 'invalid_request',
          message: 'invalid JSON body: JSON nested deeper than 128 levels',
        });
      }
    }
  });
});

describe('bytes that are not clean UTF-8 JSON', () => {
  const utf8Garbage = [
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc3]),
    Buffer.from([0x80, 0x80]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xf4, 0x90, 0x80, 0x80]),
    Buffer.from([0xe2, 0x82]),
  ];

  for (const target of relayTargets) {
    it(`${target.name}: broken UTF-8 inside strings is read with replacement characters`, async () => {
      const [before, after] = JSON.stringify(target.body()).split('hi') as [string, string];
      for (const garbage of utf8Garbage) {
        const response = await post(
          target,
          Buffer.concat([Buffer.from(before), garbage, Buffer.from(after)]),
        );
        expectSpecAnswer(response, target.family);
        expect(response.status).toBe(200);
      }
      const inKey = Buffer.concat([
        Buffer.from('{"'),
        utf8Garbage[0]!,
        Buffer.from(`":1,${JSON.stringify(target.body()).slice(1)}`),
      ]);
      expectSpecAnswer(await post(target, inKey), target.family);
    });

    it(`${target.name}: broken bytes outside strings and raw NUL bytes are invalid JSON`, async () => {
      const body = JSON.stringify(target.body());
      const hostile = [
        Buffer.concat([Buffer.from(body.slice(0, -1)), Buffer.from([0xff, 0x7d])]),
        body.replace('hi', 'h\u0000i'),
        `${body.slice(0, -1)},\u0000"a":1}`,
        '\u0000',
        Buffer.alloc(4096),
        '',
      ];
      for (const sample of hostile) expectInvalidJson(await post(target, sample), sample);
    });

    it(`${target.name}: escaped NUL characters are ordinary text`, async () => {
      const response = await post(target, JSON.stringify(target.body()).replace('hi', 'h\\u0000i\\u0000'));
      expectSpecAnswer(response, target.family);
      expect(response.status).toBe(200);
      expectSpecAnswer(await post(target, withMember(target, 'x\\u0000y', '"\\u0000"')), target.family);
    });
  }
});

describe('a wrong type in every top-level field', () => {
  const wrongValues = [
    'null',
    'true',
    '0',
    '-1',
    '1.5',
    '1e308',
    '""',
    '"x"',
    '[]',
    '[1,"a",null]',
    '{}',
    '{"a":{"b":[]}}',
  ];

  for (const target of relayTargets) {
    it(`${target.name}: every field, every type, a spec answer`, async () => {
      for (const field of target.fields) {
        for (const value of wrongValues) {
          const response = await post(
            target,
            JSON.stringify({ ...target.body(), [field]: JSON.parse(value) }),
          );
          expectSpecAnswer(response, target.family);
        }
      }
      for (const value of wrongValues) expectSpecAnswer(await post(target, value), target.family);
    });
  }

  it('management API bodies answer wrong types in the family A shape', async () => {
    for (const { method, path, body } of adminBodyTargets) {
      for (const field of Object.keys(body)) {
        for (const value of ['null', 'true', '[]', '{}', '"x"', '-1', '1e308']) {
          const response = await postAdmin(
            method,
            path,
            JSON.stringify({ ...body, [field]: JSON.parse(value) }),
          );
          expectSpecAnswer(response);
          if (response.status === 400) expect(response.body.error.code).toBe('invalid_request');
        }
      }
      for (const value of ['null', '[]', '"x"', '1']) {
        expectOpenAIError(await postAdmin(method, path, value), {
          status: 400,
          code: 'invalid_request',
          message: 'request body must be a JSON object',
        });
      }
    }
  });
});
