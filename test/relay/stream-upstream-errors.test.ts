import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
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
 * An upstream's own error event mid-stream reaches the client as the client family's error event,
 * passed through or converted, and never as a success finish; a converted stream the gateway
 * cannot read on ends with the family's error event too. The family's official SDK raises it.
 */
const UPSTREAM_MESSAGE = 'Overloaded, try again in a moment';
const REQUEST_ID = String.raw`\(request id: [0-9a-f]{32}\)`;

type Upstream = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** Each upstream protocol's own stream for a plain prompt, and how many events come before the first text. */
const native: Record<
  Upstream,
  { vendor: Vendor; path: string; body: Record<string, unknown>; events: string[]; head: number }
> = {
  'openai-chat': {
    vendor: 'openai',
    path: '/v1/chat/completions',
    body: { model: MODELS.openai, messages: [{ role: 'user', content: 'hi' }], stream: true },
    events: [],
    head: 0,
  },
  'openai-responses': {
    vendor: 'openai',
    path: '/v1/responses',
    body: { model: MODELS.openai, input: 'hi', stream: true },
    events: [],
    head: 0,
  },
  anthropic: {
    vendor: 'anthropic',
    path: '/v1/messages',
    body: {
      model: MODELS.anthropic,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    },
    events: [],
    head: 0,
  },
  gemini: {
    vendor: 'gemini',
    path: `/v1beta/models/${MODELS.gemini}:streamGenerateContent?alt=sse`,
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    events: [],
    head: 0,
  },
};

/** What a success finish looks like on each family's wire: none may appear after an error. */
const successFinish: Record<ClientFamily, RegExp> = {
  'openai-chat': /"finish_reason":"(stop|length|tool_calls)"|\[DONE\]/,
  'openai-responses': /response\.completed|response\.incomplete/,
  'anthropic-messages': /message_stop|"stop_reason":"end_turn"/,
  gemini: /"finishReason"/,
};

/** The family's error event, last on the wire. */
const errorEventLast: Record<ClientFamily, RegExp> = {
  'openai-chat': /data: \{"error":\{"message":"[^\n]*\}\}\n\n$/,
  // Converted streams add `response.failed` after `error`; an upstream's own `error` passes alone.
  'openai-responses':
    /event: error\ndata: \{"type":"error"[^\n]*\n\n(event: response\.failed\ndata: [^\n]*"status":"failed"[^\n]*\n\n)?$/,
  'anthropic-messages':
    /event: error\ndata: \{"type":"error","error":\{"type":"[a-z_]+","message":"[^\n]*"\}\}\n\n$/,
  gemini: /data: \{"error":\{"code":\d+,"message":"[^\n]*","status":"[A-Z_]+"\}\}\r\n\r\n$/,
};

/** Every client family against every upstream protocol it can reach. */
const routes: { family: ClientFamily; upstream: Upstream; mode: 'passthrough' | 'converted' }[] = [
  { family: 'openai-chat', upstream: 'openai-chat', mode: 'passthrough' },
  { family: 'openai-responses', upstream: 'openai-responses', mode: 'passthrough' },
  { family: 'anthropic-messages', upstream: 'anthropic', mode: 'passthrough' },
  { family: 'gemini', upstream: 'gemini', mode: 'passthrough' },
  { family: 'openai-chat', upstream: 'anthropic', mode: 'converted' },
  { family: 'openai-responses', upstream: 'gemini', mode: 'converted' },
  { family: 'anthropic-messages', upstream: 'openai-chat', mode: 'converted' },
  { family: 'gemini', upstream: 'anthropic', mode: 'converted' },
  { family: 'gemini', upstream: 'openai-chat', mode: 'converted' },
  { family: 'openai-chat', upstream: 'gemini', mode: 'converted' },
  { family: 'openai-responses', upstream: 'anthropic', mode: 'converted' },
  { family: 'anthropic-messages', upstream: 'gemini', mode: 'converted' },
];

let gateway: VendorStreamGateway;
beforeAll(async () => {
  gateway = await startVendorStreamGateway();
  for (const stream of Object.values(native)) {
    stream.events = await upstreamEvents(gateway.fakes[stream.vendor], stream.path, stream.body);
    stream.head = stream.events.findIndex((event) => event.includes('Hello')) + 1;
  }
});
afterAll(async () => gateway.close());
beforeEach(() => {
  for (const fake of Object.values(gateway.fakes)) fake.clear();
});

async function expectChargedWithError(text: string) {
  const [log] = await gateway.logs();
  expect(log.status_code).toBe(200);
  expect(log.error).toContain(text);
  expect(log.completion_tokens).toBeGreaterThan(0);
  expect(log.cost).toBeGreaterThan(0);
}

describe.each(routes)('$family client, $upstream upstream ($mode)', ({ family, upstream, mode }) => {
  const { vendor } = native[upstream];
  const fake = () => gateway.fakes[vendor];
  const head = () => native[upstream].head;

  test("the upstream's error event mid-stream: the SDK gets the text, then raises the upstream's message", async () => {
    fake().script({ type: 'error-mid-stream', afterChunks: head(), message: UPSTREAM_MESSAGE });
    const { text, error } = await gateway.readWithSdk(family, vendor);
    expect(text).toBe('Hello ');
    expect(errorText(error)).toContain(UPSTREAM_MESSAGE);
    await expectChargedWithError(UPSTREAM_MESSAGE);
  });

  test("on the wire: the family's own error event ends the stream, never a success finish", async () => {
    fake().script({ type: 'error-mid-stream', afterChunks: head(), message: UPSTREAM_MESSAGE });
    const wire = await gateway.readRaw(family, vendor);
    expect(wire).toContain(UPSTREAM_MESSAGE);
    expect(wire).toMatch(errorEventLast[family]);
    if (mode === 'converted') expect(wire).not.toMatch(successFinish[family]);
    if (mode === 'converted' && family === 'openai-responses')
      expect(wire).toContain('event: response.failed');
  });
});

describe.each(routes.filter((route) => route.mode === 'converted'))(
  '$family client, $upstream upstream (converted)',
  ({ family, upstream }) => {
    test('a frame that is not JSON: the SDK gets the text, then raises the gateway error; the request is charged', async () => {
      const { vendor, events, head } = native[upstream];
      gateway.fakes[vendor].script({
        type: 'raw-stream',
        chunks: [...events.slice(0, head), 'data: {"oops": \n\n', ...events.slice(head)],
      });
      const { text, error } = await gateway.readWithSdk(family, vendor);
      expect(text).toBe('Hello ');
      expect(error).not.toBeInstanceOf(SyntaxError);
      expect(errorText(error)).toMatch(
        new RegExp(
          `the upstream stream broke off: an event whose data is not a JSON object: .*oops.* ${REQUEST_ID}`,
        ),
      );
      await expectChargedWithError('the upstream stream broke off: an event whose data is not a JSON object');
    });
  },
);
