import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, type ClientResponse } from '../helpers/client-request.js';
import { expectSpecAnswer } from '../helpers/expect-spec-answer.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { relayTargets, type RelayTarget } from '../helpers/relay-targets.js';

/**
 * Bodies large in count rather than in depth, all within the body limit: 200,000 messages, parts
 * or keys, strings of many MiB. Each must finish in a time only a quadratic blow-up would miss.
 */

/** Linear work on these bodies takes a few seconds on a busy machine; quadratic work takes hours. */
const GENEROUS_MS = 30_000;
const COUNT = 200_000;

let fixture: RelayFixture;

beforeAll(async () => {
  fixture = await startRelayFixture({ balance: 100_000 });
  fixture.upstream.validateRequests(false);
});

afterAll(async () => {
  await fixture?.close();
});

async function timed(target: RelayTarget, body: unknown): Promise<ClientResponse> {
  const started = performance.now();
  const response = await send(fixture.gw.origin, target.path, {
    method: 'POST',
    headers: target.headers(fixture.key),
    body,
  });
  expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
  expectSpecAnswer(response, target.family);
  return response;
}

const bigText = (mebibytes: number) => 'lorem ipsum dolor sit amet, '.repeat((mebibytes * 1024 * 1024) / 28);

describe.each(relayTargets)('$name', (target) => {
  it(
    `${COUNT} conversation items`,
    async () => {
      const items = Array.from({ length: COUNT }, (_, index) => target.listItem(index));
      const response = await timed(target, { ...target.body(), [target.listField]: items });
      expect(response.status).toBe(200);
    },
    GENEROUS_MS * 2,
  );

  it(
    `${COUNT} items of one role, merged by the codecs that merge turns`,
    async () => {
      const items = Array.from({ length: COUNT }, () => target.listItem(0));
      expect((await timed(target, { ...target.body(), [target.listField]: items })).status).toBe(200);
    },
    GENEROUS_MS * 2,
  );

  it(
    'a string of 16 MiB',
    async () => {
      const body = JSON.parse(JSON.stringify(target.body()).replace('"hi"', JSON.stringify(bigText(16))));
      expect((await timed(target, body)).status).toBe(200);
    },
    GENEROUS_MS * 2,
  );

  it(
    `${COUNT} unknown top-level keys and a 100,000-element array of numbers`,
    async () => {
      const extra = Object.fromEntries(Array.from({ length: COUNT }, (_, index) => [`x_${index}`, index]));
      const numbers = Array.from({ length: 100_000 }, (_, index) => index / 7);
      await timed(target, { ...extra, x_numbers: numbers, ...target.body() });
    },
    GENEROUS_MS * 2,
  );
});

describe('huge lists inside one message or option', () => {
  const byName = (name: string) => relayTargets.find((target) => target.name === name)!;

  it(
    `${COUNT} content parts in one message, for each protocol`,
    async () => {
      const textPart = { type: 'text', text: 'hi' };
      await timed(byName('chat completions'), {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: Array.from({ length: COUNT }, () => textPart) }],
      });
      await timed(byName('responses'), {
        model: 'gpt-4o',
        input: [
          {
            role: 'user',
            content: Array.from({ length: COUNT }, () => ({ type: 'input_text', text: 'hi' })),
          },
        ],
      });
      await timed(byName('messages'), {
        model: 'gpt-4o',
        max_tokens: 16,
        messages: [{ role: 'user', content: Array.from({ length: COUNT }, () => textPart) }],
      });
      await timed(byName('generateContent'), {
        contents: [{ role: 'user', parts: Array.from({ length: COUNT }, () => ({ text: 'hi' })) }],
      });
    },
    GENEROUS_MS * 5,
  );

  it(
    '20,000 tools and 200,000 stop sequences',
    async () => {
      const tools = Array.from({ length: 20_000 }, (_, index) => ({
        type: 'function',
        function: { name: `tool_${index}`, parameters: { type: 'object' } },
      }));
      await timed(byName('chat completions'), {
        ...byName('chat completions').body(),
        tools,
        stop: Array.from({ length: COUNT }, () => 'x'),
      });
      await timed(byName('messages'), {
        ...byName('messages').body(),
        tools: tools.map((tool) => ({ name: tool.function.name, input_schema: { type: 'object' } })),
        stop_sequences: Array.from({ length: COUNT }, () => 'x'),
      });
      await timed(byName('generateContent'), {
        ...byName('generateContent').body(),
        tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.function.name })) }],
        generationConfig: { stopSequences: Array.from({ length: COUNT }, () => 'x') },
      });
    },
    GENEROUS_MS * 4,
  );
});
