import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { FakeStep } from '../fakes/fake-upstream.js';
import {
  errorText,
  MODELS,
  startVendorStreamGateway,
  upstreamEvents,
  type ClientFamily,
  type Vendor,
  type VendorStreamGateway,
} from '../helpers/vendor-stream-gateway.js';

/**
 * Same protocol both sides: the gateway forwards whole frames, byte-exact, and ends a stream it
 * cannot read on (a frame that is not JSON, a close mid-frame, a missing last event) with the
 * protocol's own error event, which the family's official SDK raises with the gateway's message.
 */
interface PassthroughCase {
  family: ClientFamily;
  vendor: Vendor;
  path: string;
  body: Record<string, unknown>;
  missing: string;
  /** The upstream's events for the request, as the fake writes them. */
  events: string[];
  /** How many events to send before a failure: up to the first text delta. */
  head: number;
}

const cases: PassthroughCase[] = [
  {
    family: 'openai-chat',
    vendor: 'openai',
    path: '/v1/chat/completions',
    body: { model: MODELS.openai, messages: [{ role: 'user', content: 'hi' }], stream: true },
    missing: 'the stream ended without [DONE] or a finish_reason',
  },
  {
    family: 'openai-responses',
    vendor: 'openai',
    path: '/v1/responses',
    body: { model: MODELS.openai, input: 'hi', stream: true },
    missing: 'the stream ended without response.completed, response.incomplete or response.failed',
  },
  {
    family: 'anthropic-messages',
    vendor: 'anthropic',
    path: '/v1/messages',
    body: {
      model: MODELS.anthropic,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    },
    missing: 'the stream ended without message_stop',
  },
  {
    family: 'gemini',
    vendor: 'gemini',
    path: `/v1beta/models/${MODELS.gemini}:streamGenerateContent?alt=sse`,
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    missing: 'the stream ended without a candidate with a finishReason',
  },
].map((item) => ({ ...item, events: [], head: 0 }) as PassthroughCase);

const REQUEST_ID = String.raw`\(request id: [0-9a-f]{32}\)`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let gateway: VendorStreamGateway;
beforeAll(async () => {
  gateway = await startVendorStreamGateway();
  for (const item of cases) {
    item.events = await upstreamEvents(gateway.fakes[item.vendor], item.path, item.body);
    item.head = item.events.findIndex((event) => event.includes('Hello')) + 1;
  }
});
afterAll(async () => gateway.close());
beforeEach(() => {
  for (const fake of Object.values(gateway.fakes)) fake.clear();
});

/** The last usage record: a success status, charged for what was produced, with the error text. */
async function expectChargedWithError(text: string) {
  const [log] = await gateway.logs();
  expect(log.status_code).toBe(200);
  expect(log.error).toContain(text);
  expect(log.prompt_tokens).toBeGreaterThan(0);
  expect(log.completion_tokens).toBeGreaterThan(0);
  expect(log.cost).toBeGreaterThan(0);
}

describe.each(cases)('$family client, $vendor upstream (passthrough)', (item) => {
  const failures: [string, () => FakeStep, string, RegExp][] = [
    [
      'a frame whose data is not JSON',
      () => ({
        type: 'raw-stream',
        chunks: [...item.events.slice(0, item.head), 'data: {not json\n\n', ...item.events.slice(item.head)],
      }),
      'the upstream stream broke off: an event whose data is not a JSON object',
      new RegExp(
        `the upstream stream broke off: an event whose data is not a JSON object: .*not json.* ${REQUEST_ID}`,
      ),
    ],
    [
      'an upstream that closes in the middle of a frame',
      () => ({ type: 'cut-mid-frame', afterChunks: item.head }),
      'the upstream stream broke off: the connection closed in the middle of an event',
      new RegExp(
        `the upstream stream broke off: the connection closed in the middle of an event ${REQUEST_ID}`,
      ),
    ],
    [
      "an upstream that ends without the protocol's last event",
      () => ({ type: 'end-mid-stream', afterChunks: item.head }),
      `the upstream stream broke off: ${item.missing}`,
      new RegExp(`the upstream stream broke off: ${escapeRegExp(item.missing)} ${REQUEST_ID}`),
    ],
  ];

  test.each(failures)(
    '%s: the SDK gets the text before it, then raises the gateway error; the request is charged',
    async (_, step, logged, raised) => {
      gateway.fakes[item.vendor].script(step());
      const { text, error } = await gateway.readWithSdk(item.family, item.vendor);
      expect(text).toBe('Hello ');
      expect(error).not.toBeInstanceOf(SyntaxError);
      expect(errorText(error)).toMatch(raised);
      await expectChargedWithError(logged);
    },
  );

  test('frames go out byte-exact: comments, id lines and line ends as the upstream wrote them', async () => {
    const [first = '', second = '', ...rest] = item.events;
    const chunks = [`: keep-alive\r\n\r\n${first}`, `id: 7\n${second.replace(/\r?\n/g, '\r\n')}`, ...rest];
    // Cut anywhere, even inside a UTF-8 character or a line end.
    const bytes = chunks.join('');
    gateway.fakes[item.vendor].script({
      type: 'raw-stream',
      chunks: [bytes.slice(0, 7), bytes.slice(7, 100), bytes.slice(100, 101), bytes.slice(101)],
    });
    expect(await gateway.readRaw(item.family, item.vendor)).toBe(bytes);
  });
});

test('OpenAI chat: what the client gets is every valid frame, then the error event, and no [DONE]', async () => {
  const item = cases[0]!;
  const valid = item.events.slice(0, item.head).join('');
  gateway.fakes.openai.script({
    type: 'raw-stream',
    chunks: [valid, 'data: {"choices": [\n\n', ...item.events.slice(item.head)],
  });
  const text = await gateway.readRaw('openai-chat', 'openai', { stream_options: { include_usage: true } });
  expect(text.startsWith(valid)).toBe(true);
  const rest = text.slice(valid.length);
  expect(rest).toMatch(/^data: \{"error":\{.*\}\}\n\n$/);
  expect(JSON.parse(rest.slice('data: '.length))).toEqual({
    error: {
      message: expect.stringMatching(
        new RegExp(
          `^the upstream stream broke off: an event whose data is not a JSON object: .* ${REQUEST_ID}$`,
        ),
      ),
      type: 'gateway_api_error',
      param: null,
      code: 'upstream_error',
    },
  });
});
